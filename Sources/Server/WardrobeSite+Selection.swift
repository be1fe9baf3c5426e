import Wardrobe

extension WardrobeSite {
    /// POST /label-many: one act of a person on the images picked in the gallery (see
    /// `SelectionForms`), under the same token, Origin and read-only rules as `/label`, then
    /// back to the page it came from (303) with the undo parameter; or, with `action`
    /// `restore` and that parameter, the act undone: every image's person label as it was.
    /// Fields: `token`, `action` (`label`, `confirm`, `restore`), `label` (a name),
    /// `image-N` (one per picked image), `undo` (for `restore`), `back` (a path on this site).
    func labelMany(_ request: HTTPRequest) throws -> HTTPResponse {
        try allowStateChange(request)
        let form = request.form
        let back = WardrobeSite.localPath(form["back"]) ?? "/"
        do {
            switch form["action"] ?? "" {
            case "restore":
                try catalogue.restore(try SelectionForms.undoList(form["undo"] ?? ""), command: "serve")
                return .seeOther(back)
            case "label", "confirm":
                let act: Labeller.Act
                if form["action"] == "label" {
                    do { act = .label(try LabelMatcher.index(of: form["label"] ?? "")) } catch { throw SiteError.badRequest("\(error)") }
                } else {
                    act = .confirm
                }
                let before = try catalogue.label(act, images: try SelectionForms.picked(form), command: "serve")
                let undo = Link.encode(SelectionForms.undoParameter(before))
                return .seeOther(back + (back.contains("?") ? "&" : "?") + "undo=" + undo)
            default:
                throw SiteError.badRequest("unknown action")
            }
        } catch WardrobeError.notFound {
            throw SiteError.notFound
        } catch WardrobeError.invalidArgument(let message) {
            throw SiteError.badRequest(message)
        }
    }
}
