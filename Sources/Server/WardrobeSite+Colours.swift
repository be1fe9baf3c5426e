import Wardrobe

extension WardrobeSite {
    /// POST /colour: a person's colour for one image, the same act as `wardrobe colour`
    /// (recorded with the command `serve`), then back to the page it came from (303).
    /// Fields: `token`, `id`, `action` (`set`, or `clear` to take the person's colour back),
    /// `colour` (a palette name, for `set`) and `back` (a path on this site).
    func colour(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try actedOnImage(request)
        let form = request.form
        let colour: String?
        switch form["action"] ?? "" {
        case "set":
            do { colour = try ColourSetter.name(form["colour"] ?? "") } catch { throw SiteError.badRequest("\(error)") }
        case "clear": colour = nil
        default: throw SiteError.badRequest("unknown action")
        }
        try SiteError.acting(on: "image \(id)") { try catalogue.setColour(colour, image: id, command: "serve") }
        return .seeOther(WardrobeSite.localPath(form["back"]) ?? "/image/\(id)")
    }
}
