import Catalogue
import Dispatch
import Foundation
import Server
import Testing

/// What a form's POST answers when the catalogue fails it for a reason outside the request:
/// another process forgets the image while the act waits for the lock (404 naming the image),
/// holds the write lock past the busy timeout (503 with Retry-After), or the catalogue's
/// file is removed while serving (503, nothing said to be saved). Each was a 500 whose page
/// gave the catalogue's path, SQLite's message with the SQL, and the command line's "run the
/// command again"; a removed file was answered 303, the correction written to the unlinked
/// file and lost.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerFailureTests {
    /// A response of the server's, in a box another thread fills.
    final class Answer: @unchecked Sendable {
        var response: Result<RawHTTP.Response, any Error>?
        let done = DispatchSemaphore(value: 0)
    }

    /// `form` posted to `route` on another thread.
    static func post(_ route: String, _ form: [(String, String)], to served: (site: WardrobeSite, server: HTTPServer, path: String))
        -> Answer {
        let answer = Answer()
        let client = RawHTTP(port: served.server.port)
        let fields = [("token", served.site.guardian.token)] + form
        DispatchQueue.global().async {
            answer.response = Result { try client.post(route, form: fields, origin: client.ownOrigin) }
            answer.done.signal()
        }
        return answer
    }

    /// Nothing of the catalogue's insides: its path, SQL, SQLite's words, the command line's advice.
    static func expectNothingInternal(_ text: String, path: String, _ comment: Comment) {
        for secret in [path, "BEGIN", "SQLite", "sqlite", "run the command", "--db"] {
            #expect(!text.contains(secret), "\(comment): says \(secret): \(text)")
        }
    }

    @Test(arguments: ["label", "colour", "label-many"])
    func anImageForgottenWhileTheActWaitsIsNotFoundByItsNumber(route: String) throws {
        let served = try ServedCatalogue.shared.servedCopy()
        defer { served.server.stop() }
        let image = try #require(try Catalogue(path: served.path, mode: .readOnly).galleryPage(GalleryQuery(limit: 1)).first).image
        // Another process forgets the image: it holds the write lock with the image deleted,
        // and commits once the act is waiting for that lock.
        let other = try Catalogue(path: served.path)
        try other.database.execute("PRAGMA foreign_keys = OFF")
        try other.database.execute("BEGIN IMMEDIATE")
        try other.database.execute("DELETE FROM images WHERE id = :id", [":id": image])
        let form: [(String, String)] = switch route {
        case "colour": [("id", "\(image)"), ("action", "set"), ("colour", "red")]
        case "label": [("id", "\(image)"), ("action", "label"), ("label", "Bag")]
        default: [("action", "label"), ("label", "Bag"), ("image-\(image)", "1")]
        }
        let answer = Self.post("/\(route)", form, to: served)
        Thread.sleep(forTimeInterval: 1)
        try other.database.execute("COMMIT")
        try #require(answer.done.wait(timeout: .now() + 20) == .success)
        let response = try #require(try answer.response?.get())
        #expect(response.status == 404, "\(route): \(response.status) \(response.text)")
        let said = route == "label-many" ? "image \(image) is not in the catalogue; none was labelled" : "image \(image) is not in the catalogue"
        #expect(response.text.contains("Not found: \(said)."), "\(route): \(response.text)")
        #expect(!response.text.contains("no page at"), "the page is there; the image is not: \(response.text)")
        Self.expectNothingInternal(response.text, path: served.path, "\(route)")
    }

    @Test func aLockHeldPastTheBusyTimeoutIsBusyWithRetryAfter() throws {
        let served = try ServedCatalogue.shared.servedCopy()
        defer { served.server.stop() }
        let image = try #require(try Catalogue(path: served.path, mode: .readOnly).galleryPage(GalleryQuery(limit: 1)).first).image
        let other = try Catalogue(path: served.path)
        try other.database.execute("BEGIN IMMEDIATE")
        defer { try? other.database.execute("ROLLBACK") }
        let answer = Self.post("/label", [("id", "\(image)"), ("action", "label"), ("label", "Bag")], to: served)
        try #require(answer.done.wait(timeout: .now() + 20) == .success)
        let response = try #require(try answer.response?.get())
        #expect(response.status == 503, "\(response.status) \(response.text)")
        #expect(response.header("retry-after").flatMap(Int.init) ?? 0 > 0, "\(response.headers)")
        #expect(response.text.contains("Busy: another program is writing to the catalogue, so nothing was saved"), "\(response.text)")
        Self.expectNothingInternal(response.text, path: served.path, "busy")
    }

    @Test func aCatalogueFileRemovedWhileServingTakesNoCorrection() throws {
        let served = try ServedCatalogue.shared.servedCopy()
        defer { served.server.stop() }
        let image = try #require(try Catalogue(path: served.path, mode: .readOnly).galleryPage(GalleryQuery(limit: 1)).first).image
        let client = RawHTTP(port: served.server.port)
        // Opened before: the write connection holds the file that goes.
        #expect(try client.get("/image/\(image)").status == 200)
        try FileManager.default.removeItem(atPath: served.path)
        let answer = Self.post("/label", [("id", "\(image)"), ("action", "label"), ("label", "Bag")], to: served)
        try #require(answer.done.wait(timeout: .now() + 20) == .success)
        let response = try #require(try answer.response?.get())
        #expect(response.status == 503, "a lost correction was said to be saved: \(response.status) \(response.text)")
        #expect(response.text.contains("Unavailable: the catalogue&#39;s file is no longer where it was opened, "
                                       + "so nothing was saved."), "\(response.text)")
        Self.expectNothingInternal(response.text, path: served.path, "removed")
    }

    /// Pages read through each thread's own connection, which held the file there when that
    /// thread first read: once the catalogue's file was removed, or another moved over it (a
    /// backup put back), the pages went on showing the catalogue no longer there, or that one
    /// and the new one by turns, each with forms that could not be saved.
    @Test(arguments: ["removed", "replaced"])
    func pagesOfACatalogueFileRemovedOrReplacedWhileServingAreUnavailable(change: String) throws {
        let served = try ServedCatalogue.shared.servedCopy()
        defer { served.server.stop() }
        let item = try #require(try Catalogue(path: served.path, mode: .readOnly).galleryPage(GalleryQuery(limit: 1)).first)
        let pages = ["/", "/image/\(item.image)", "/review", "/stats", "/thumb/\(item.sha256.hex)", "/tensor/\(item.image).png"]
        let client = RawHTTP(port: served.server.port)
        for page in pages { #expect(try client.get(page).status == 200, "\(page)") }
        let other = served.path + "-other.sqlite"
        try Catalogue(path: served.path, mode: .readOnly).database.execute("VACUUM INTO :path", [":path": other])
        try FileManager.default.removeItem(atPath: served.path)
        if change == "replaced" { #expect(rename(other, served.path) == 0) }
        for page in pages {
            let response = try client.get(page)
            #expect(response.status == 503, "\(change): \(page): \(response.status)")
            #expect(response.text.contains("Unavailable: the catalogue&#39;s file is no longer where it was opened."),
                    "\(change): \(page): \(response.text)")
            Self.expectNothingInternal(response.text, path: served.path, "\(change) \(page)")
        }
    }

    /// A value another program wrote (a label's count set below zero) is a 500 that says what
    /// is wrong and what to do, as the command line does, but not its line, which names the
    /// catalogue and the command that would look into it (`wardrobe check --db PATH`).
    @Test func aValueAnotherProgramWroteIsA500ThatSaysSoWithoutThePath() throws {
        let served = try ServedCatalogue.shared.servedCopy()
        defer { served.server.stop() }
        try Catalogue(path: served.path).database.execute(
            "UPDATE label_counts SET images = -1 WHERE label = (SELECT min(label) FROM label_counts)")
        let response = try RawHTTP(port: served.server.port).get("/")
        #expect(response.status == 500, "\(response.status)")
        #expect(response.text.contains("Error: the catalogue holds a value wardrobe never stores ("), "\(response.text)")
        #expect(response.text.contains("undo that change or restore your last backup."), "\(response.text)")
        Self.expectNothingInternal(response.text, path: served.path, "500")
    }
}
