import Catalogue
import Wardrobe

extension WardrobeSite {
    /// POST /label: one act of a person on one image, the same act as
    /// `wardrobe label`, then back to the page it came from (303).
    /// Fields: `token`, `id`, `action` (`label`, `confirm`, `clear`, or
    /// `restore` to put back an earlier person label, empty for none),
    /// `label` (a name), `back` (a path on this site) and `undoable` (the
    /// page after offers to undo the act).
    func label(_ request: HTTPRequest) throws -> HTTPResponse {
        if let refused = guardian.checkStateChange(request) { return refused }
        guard let writer else { return .text("Forbidden: this server is read-only.", status: 403) }
        let form = request.form
        guard let idText = form["id"], let id = try? SiteError.imageID(idText) else {
            throw SiteError.badRequest("the form names no image")
        }
        let act: Labeller.Act
        switch form["action"] ?? "" {
        case "label": act = .label(try labelIndex(form["label"] ?? ""))
        case "confirm": act = .confirm
        case "clear": act = .clear
        case "restore": act = (form["label"] ?? "").isEmpty ? .clear : .label(try labelIndex(form["label"] ?? ""))
        default: throw SiteError.badRequest("unknown action")
        }
        // The person's label before the act, read under the same lock, for undo.
        let before: Int?
        do {
            before = try writer.catalogue.withLock { catalogue -> Int? in
                // By id only: an id that names no image must not fall back to a hash prefix.
                guard try catalogue.image(id) != nil else { throw SiteError.notFound }
                let before = try catalogue.personLabel(of: id)
                _ = try Labeller(catalogue: catalogue, command: "serve").apply(act, to: [.id(id)])
                return before
            }
        } catch CatalogueError.invalidArgument(let message) {
            throw SiteError.badRequest(message)
        }
        var back = WardrobeSite.localPath(form["back"]) ?? "/image/\(id)"
        if form["undoable"] == "1" {
            let was = before.map(LabelMatcher.name(of:)) ?? ""
            back += (back.contains("?") ? "&" : "?") + "undo=\(id)&was=" + Link.encode(was)
        }
        return .seeOther(back)
    }

    private func labelIndex(_ name: String) throws -> Int {
        do { return try LabelMatcher.index(of: name) } catch { throw SiteError.badRequest("\(error)") }
    }

    /// A path on this site to go back to: it must start with one `/` and hold
    /// no control characters or backslashes (no redirect to another site).
    public static func localPath(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/"), !value.hasPrefix("//"),
              !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" })
        else { return nil }
        return value
    }
}
