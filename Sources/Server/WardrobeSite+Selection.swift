import Wardrobe

extension WardrobeSite {
    /// POST /label-many: one act of a person on the images picked in the gallery (see
    /// `SelectionForms`), under the same token, Origin and read-only rules as `/label`, then
    /// back to the page it came from (303) with the undo parameter, which names the act kept
    /// to be undone (see `UndoLedger`); or, with `action` `restore` and that parameter, the
    /// act undone: every image's person label as it was.
    /// Fields: `token`, `action` (`label`, `confirm`, `restore`), `label` (a name),
    /// `image-N` (one per picked image), `undo` (for `restore`), `back` (a path on this site).
    func labelMany(_ request: HTTPRequest) throws -> HTTPResponse {
        try allowStateChange(request)
        let form = request.form
        let back = WardrobeSite.localPath(form["back"]) ?? "/"
        switch form["action"] ?? "" {
        case "restore":
            try undo(form["undo"])
            return .seeOther(back)
        case "label", "confirm":
            let act: Labeller.Act
            if form["action"] == "label" {
                do { act = .label(try LabelMatcher.index(of: form["label"] ?? "")) } catch { throw SiteError.badRequest("\(error)") }
            } else {
                act = .confirm
            }
            let picked = try SelectionForms.picked(form)
            let changes = try SiteError.acting(on: picked, outcome: "none was labelled", in: catalogue) {
                try catalogue.label(act, images: picked, command: "serve")
            }
            return .seeOther(back + (back.contains("?") ? "&" : "?") + "undo=" + undos.record(changes))
        default:
            throw SiteError.badRequest("unknown action")
        }
    }
}
