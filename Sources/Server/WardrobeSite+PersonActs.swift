extension WardrobeSite {
    /// Refuses (throws `SiteError.refused`) a request that would change the catalogue unless
    /// it carries the page's token from this site (`RequestGuard`) and the server may write:
    /// the rule every form that records a person's act goes through.
    func allowStateChange(_ request: HTTPRequest) throws {
        if let refused = guardian.checkStateChange(request) { throw SiteError.refused(refused) }
        guard !readOnly else { throw SiteError.refused(.text("Forbidden: this server is read-only.", status: 403)) }
    }

    /// The image a person's act on one image names (the form's `id`), once `allowStateChange`
    /// lets the request through.
    func actedOnImage(_ request: HTTPRequest) throws -> Int64 {
        try allowStateChange(request)
        guard let text = request.form["id"], let id = try? SiteError.imageID(text) else {
            throw SiteError.badRequest("the form names no image")
        }
        return id
    }
}
