import Files
import Wardrobe

extension WardrobeSite {
    /// POST /label: one act of a person on one image, the same act as
    /// `wardrobe label`, then back to the page it came from (303), or, when
    /// the request accepts `application/json` (the page's script), a JSON
    /// object saying what the image's label is now (see `reply`).
    /// Fields: `token`, `id`, `action` (`label`, `confirm`, `clear`, or
    /// `restore` to undo the act `undo` names), `label` (a name), `back` (a
    /// path on this site), `undoable` (the act is kept to be undone, and the
    /// page after offers to, see `UndoLedger`) and `undo`.
    func label(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try actedOnImage(request)
        let form = request.form
        let back = WardrobeSite.localPath(form["back"]) ?? "/image/\(id)"
        let act: Labeller.Act
        switch form["action"] ?? "" {
        case "label": act = .label(try labelIndex(form["label"] ?? ""))
        case "confirm": act = .confirm
        case "clear": act = .clear
        case "restore":
            let undone = try undo(form["undo"], image: id)
            guard request.header("accept")?.contains("application/json") == true else { return .seeOther(back) }
            let was = undone[0].after.map(LabelMatcher.name(of:)) ?? ""
            return .json(Array(WardrobeSite.reply(id: id, after: try catalogue.item(id), was: was, undo: nil, next: back).utf8))
        default: throw SiteError.badRequest("unknown action")
        }
        // The person's label before the act (for undo) and the image after it, read with the act.
        let (change, after) = try SiteError.acting(on: "image \(id)") {
            try catalogue.label(act, image: id, command: "serve")
        }
        let was = change.before.map(LabelMatcher.name(of:)) ?? ""
        let undo = form["undoable"] == "1" ? undos.record([change]) : nil
        let next = undo.map { back + (back.contains("?") ? "&" : "?") + "undo=" + $0 } ?? back
        if request.header("accept")?.contains("application/json") == true {
            return .json(Array(WardrobeSite.reply(id: id, after: after, was: was, undo: undo, next: next).utf8))
        }
        return .seeOther(next)
    }

    /// The script's answer to an act: `id`; `label`, the effective label now
    /// (a name, `none`, or null if never classified); `person`, whether a
    /// person gave it; `model`, the model's label; `was`, the person's label
    /// before the act (empty for none); `undo`, what names the act to undo it
    /// (null when it is not kept); `name`, the image's file name as pages show
    /// it; `next`, the page a form without script goes to.
    static func reply(id: Int64, after: Gallery.Item?, was: String, undo: String?, next: String) -> String {
        JSONText.object([
            ("id", .integer(id)),
            ("label", after.map { .string(LabelMatcher.name(of: $0.effectiveLabel)) } ?? .null),
            ("person", .bool(after?.correctedLabel != nil)),
            ("model", after.map { .string(LabelMatcher.name(of: $0.label)) } ?? .null),
            ("was", .string(was)),
            ("undo", undo.map { .string($0) } ?? .null),
            // Shown by the script as the page shows it (see `HTML.text`), escapes visible.
            ("name", .string(VisibleText.escaped(after?.path.map(GalleryPage.fileName) ?? "image \(id)"))),
            ("next", .string(next)),
        ])
    }

    private func labelIndex(_ name: String) throws -> Int {
        do { return try LabelMatcher.index(of: name) } catch { throw SiteError.badRequest("\(error)") }
    }

    /// A path on this site to go back to: it must start with one `/` and hold
    /// only printable ASCII without backslashes (no redirect to another site,
    /// nothing a Location header cannot carry as it is; the site's own links
    /// are percent-encoded).
    public static func localPath(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/"), !value.hasPrefix("//"),
              value.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\\" })
        else { return nil }
        return value
    }
}
