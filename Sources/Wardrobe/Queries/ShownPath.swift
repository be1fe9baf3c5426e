internal import Catalogue

/// An image's best path as a report names it beside the image (`duplicates`, `similar`): an
/// existing file first, this machine's before another's, else the most recently seen, written `machine:path` when it was seen on
/// another machine, with its state in the words `list` and `export` use (`path_state`). A bare
/// path read as a file that is there: a copy deleted since its import was offered as the one
/// to keep.
struct ShownPath: Sendable, Equatable {
    var path: String?
    /// "present", "missing" (no file at the last look), or "none" (no path known).
    var state: String

    init(_ paths: [KnownPath], here machine: String) {
        // `paths` come best first by state and recency; this machine's existing file goes first,
        // as in `list`.
        guard let best = paths.first(where: { !$0.isMissing && $0.machine == machine }) ?? paths.first else {
            path = nil
            state = "none"
            return
        }
        path = Machine.shown(best.path, on: best.machine, from: machine)
        state = best.isMissing ? "missing" : "present"
    }

    /// The path for a table: "PATH (missing)" as `list` writes it, "-" for none.
    static func text(_ path: String?, state: String) -> String {
        guard let path else { return "-" }
        return state == "missing" ? "\(path) (missing)" : path
    }
}
