import Files
import Foundation
import Wardrobe

/// The pages of `wardrobe serve` over one catalogue. Every request passes
/// the Host check first; only the fixed routes below answer (images by id
/// or hash, assets compiled in), anything else is 404. Every page is a use
/// case of the one open catalogue, shared by the server's threads (each reads
/// through its own connection; corrections go one at a time).
public final class WardrobeSite: HTTPHandler {
    public let guardian: RequestGuard
    public let readOnly: Bool
    let catalogue: OpenCatalogue
    /// What a model not yet adopted would change (`serve --candidate`), worked out once at start.
    let candidate: ReclassifyReport?
    /// The acts made through these pages that can be undone (see `UndoLedger`).
    let undos = UndoLedger()
    /// How many larger views are decoded at once (see `ViewBudget`).
    let viewBudget: ViewBudget

    /// `catalogue` is opened for threads to share (`WardrobeSetup.openCatalogue`), read-only
    /// when `readOnly`: the pages then come without the forms that change labels (and such
    /// POSTs are refused).
    public init(catalogue: OpenCatalogue, boundHost: String, readOnly: Bool, candidate: ReclassifyReport? = nil,
                token: String = RequestGuard.randomToken(), viewBudget: ViewBudget = ViewBudget()) {
        guardian = RequestGuard(boundHost: boundHost, token: token)
        self.readOnly = readOnly
        self.catalogue = catalogue
        self.candidate = candidate
        self.viewBudget = viewBudget
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        if let refused = guardian.checkHost(request) ?? guardian.checkFetchSite(request) { return refused }
        do {
            return try route(request)
        } catch {
            return answer(SiteError(error), to: request)
        }
    }

    /// What each `SiteError` answers: its status, the one line the visitor reads, and for a
    /// 503 when to try again. A failure of the server's own (500) is written to its log, where
    /// its line (path and all) helps, and the visitor only learns that it happened; why the
    /// catalogue is unavailable (503) is written there too.
    func answer(_ error: SiteError, to request: HTTPRequest) -> HTTPResponse {
        switch error {
        case .refused(let response):
            return response
        case .notFound:
            return refusal(status: 404, message: "Not found: there is no page at \(request.path).", to: request)
        case .noImage(let what):
            return refusal(status: 404, message: "Not found: \(what) is not in the catalogue.", to: request)
        case .noImages(let missing, let chosen, let outcome):
            let named = missing.prefix(10).map(String.init).joined(separator: ", ")
                + (missing.count > 10 ? " and \(missing.count - 10) more" : "")
            let which = missing.count == 1 ? "image \(named) is" : "images \(named) are"
            let share = chosen > missing.count ? " (\(missing.count) of the \(chosen) chosen)" : ""
            return refusal(status: 404, message: "Not found: \(which) not in the catalogue\(share); \(outcome).", to: request)
        case .noFileLeft(let id):
            return refusal(status: 404, message: "Not found: image \(id) has no file left as it was imported (each is "
                           + "gone or changed since), so there is no larger view of it.", to: request)
        case .badRequest(let message):
            return refusal(status: 400, message: "Bad request: \(message)", to: request)
        case .busy:
            let saved = request.method == "POST" ? ", so nothing was saved" : ""
            var response = refusal(status: 503, message: "Busy: another program is writing to the catalogue\(saved); "
                                   + "try again in a moment.", to: request)
            response.headers.append(("Retry-After", String(WardrobeSite.busyRetrySeconds)))
            return response
        case .unavailable(let reason):
            // Said in the log too: whoever runs serve reads why pages are refused there, not in a browser.
            WardrobeSite.log("unavailable: \(request.method) \(request.path): \(reason)")
            let saved = request.method == "POST" ? ", so nothing was saved" : ""
            return refusal(status: 503, message: "Unavailable: \(reason)\(saved).", to: request)
        case .overloaded(let what, let seconds):
            var response = refusal(status: 503, message: "Busy: \(what); try again in a moment.", to: request)
            response.headers.append(("Retry-After", String(seconds)))
            return response
        case .damaged(let what):
            return refusal(status: 500, message: "Error: \(what).", to: request)
        case .failed(let failure):
            WardrobeSite.log("error: \(request.method) \(request.path): \(failure)")
            return refusal(status: 500, message: "Error: this could not be done, for a reason on the server's side "
                           + "(its log says which).", to: request)
        }
    }

    /// How long a request that found the catalogue locked is told to wait before trying again:
    /// the lock outlasted SQLite's busy timeout, so whatever holds it is longer than a moment.
    static let busyRetrySeconds = 5

    /// A line on the server's standard error, where `wardrobe serve` says what it does; lost,
    /// and the server goes on, when it cannot be written (`StandardError.writeLine`).
    static func log(_ line: String) {
        StandardError.writeLine(line)
    }

    /// A page that is not there (404), a request that means nothing (400), a page that could
    /// not be made (500: a row another program changed, a damaged catalogue) or not now (503):
    /// `message`, one line, escaped, in the frame of every page, so a person in the browser
    /// reads what is wrong, with the way back to the other pages. The page's script, which asks for JSON and
    /// shows an error's text as it is, gets the line as plain text.
    public func refusal(status: Int, message: String, to request: HTTPRequest) -> HTTPResponse {
        if request.header("accept")?.contains("application/json") == true { return .text(message, status: status) }
        let (title, heading) = switch status {
        case 404: ("Not found", "This page is not here")
        case 400: ("Bad request", "This request cannot be answered")
        case 503: ("Unavailable", "This cannot be done now")
        default: ("Error", "This page cannot be shown")
        }
        let content: HTML = """
            <h1>\(text: heading)</h1>
            <p class="notice">\(text: message)</p>
            """
        return .html(PageLayout.page(title: title, section: .failure, readOnly: readOnly, content), status: status)
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        // label() and colour() refuse anything but a POST with the token and this server's Origin.
        if parts == ["label"] { return try label(request) }
        if parts == ["label-many"] { return try labelMany(request) }
        if parts == ["colour"] { return try colour(request) }
        if request.method == "POST" { throw SiteError.notFound }
        // The gallery, review and an image's page read their own parameters (and refuse the
        // others); every other page takes none.
        if !(parts == [""] || parts == ["review"] || parts.first == "image" || parts.first == "original") {
            try SiteError.refuseUnknown(request.query)
        }
        switch parts.first ?? "" {
        case "" where parts.count == 1:
            return try GalleryPage(site: self, request: request).response()
        case "image" where parts.count == 2:
            return try ImagePage(site: self, request: request, id: try SiteError.imageID(parts[1])).response()
        case "thumb" where parts.count == 2:
            return try thumbnail(hash: parts[1], request: request)
        case "tensor" where parts.count == 2 && parts[1].hasSuffix(".png"):
            return try tensor(id: try SiteError.imageID(String(parts[1].dropLast(4))), request: request)
        case "original" where parts.count == 2:
            return try view(id: try SiteError.imageID(parts[1]), request: request)
        case "review" where parts.count == 1:
            return try ReviewPage(site: self, request: request).response()
        case "stats" where parts.count == 1:
            return try StatsPage(site: self).response()
        case "changes" where parts.count == 1:
            guard let candidate else { throw SiteError.notFound }
            return ChangesPage(site: self, report: candidate).response()
        case "static" where parts == ["static", "style.css"]:
            return asset(StaticAssets.styleSheet, type: "text/css; charset=utf-8")
        case "static" where parts == ["static", "keys.js"]:
            return asset(StaticAssets.script, type: "text/javascript; charset=utf-8")
        default:
            throw SiteError.notFound
        }
    }

    private func asset(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type), ("Cache-Control", "public, max-age=3600")],
                     body: Array(text.utf8))
    }

    /// The stored bytes; the image's hash is the ETag, so a browser that has
    /// them gets 304 and no body (if the image is still there: a hash no image has is 404,
    /// whatever the request says it has).
    /// At the one address the pages write, `/thumb/` and the SHA-256 in lower-case hex.
    private func thumbnail(hash: String, request: HTTPRequest) throws -> HTTPResponse {
        guard hash.utf8.count == 64, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw SiteError.notFound
        }
        guard let thumbnail = try catalogue.thumbnail(sha256: hash) else { throw SiteError.notFound }
        let tag = "\"\(hash)\""
        let caching = [("ETag", tag), ("Cache-Control", "private, max-age=86400")]
        if let sent = request.header("if-none-match"), sent.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == tag
        }) {
            return HTTPResponse(status: 304, headers: caching)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", thumbnail.contentType)] + caching, body: thumbnail.bytes)
    }

    /// `/original/ID?w=SIDE`: a larger view of the image, its longest side at most SIDE, one of
    /// `OpenCatalogue.viewSides` (default 960), made from the image's file by
    /// `OpenCatalogue.view(of:side:)`: the URL names an image, never a file, and what is sent
    /// is always a re-encoded copy. The image's hash and the side are the ETag. Made within
    /// `viewBudget`: when it has no room, 503 and when to come back.
    private func view(id: Int64, request: HTTPRequest) throws -> HTTPResponse {
        try SiteError.refuseUnknown(request.query, known: ["w"])
        let sides = OpenCatalogue.viewSides
        let side = try request.query["w"].map { text in
            guard let side = Int(text), sides.contains(side) else {
                throw SiteError.badRequest("w is one of " + sides.map(String.init).joined(separator: ", "))
            }
            return side
        } ?? 960
        guard let item = try catalogue.item(id) else { throw SiteError.noImage("image \(id)") }
        let tag = "\"v-\(item.sha256)-\(side)\""
        let caching = [("ETag", tag), ("Cache-Control", "private, max-age=3600")]
        if request.header("if-none-match") == tag { return HTTPResponse(status: 304, headers: caching) }
        guard let cost = try catalogue.viewCost(of: id) else { throw SiteError.noImage("image \(id)") }
        switch try viewBudget.admit(cost: cost, { try catalogue.view(of: id, side: side) }) {
        case .made(let jpeg?):
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")] + caching, body: jpeg)
        case .made(nil):
            throw SiteError.noFileLeft(id)
        case .full(let seconds):
            throw SiteError.overloaded("as many larger views are being made as the server makes for now",
                                       retryAfterSeconds: seconds)
        }
    }

    /// The 28x28 tensor the model in use sees, drawn from the stored thumbnail through the
    /// recipe every command would use (see `OpenCatalogue.tensor(of:)`).
    private func tensor(id: Int64, request: HTTPRequest) throws -> HTTPResponse {
        guard let name = try catalogue.tensorTag(of: id) else { throw SiteError.noImage("image \(id)") }
        let tag = "\"\(name)\""
        let caching = [("ETag", tag), ("Cache-Control", "private, max-age=3600")]
        if request.header("if-none-match") == tag { return HTTPResponse(status: 304, headers: caching) }
        guard let png = try catalogue.tensor(of: id) else { throw SiteError.noImage("image \(id)") }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")] + caching, body: png)
    }
}
