import Catalogue
import Foundation
import Testing
@testable import Wardrobe
import Server

/// Undo is offered only for an act this server made, and undoes only what that act did,
/// once (see `UndoLedger`). The undo state was the URL's own: `/?undo=1:Bag,2:Bag,3:Bag`,
/// `/image/1?undo=5&was=Sandal` and `/review?undo=5&was=Sandal`, from a link on any site,
/// said "Saved" above a working Undo form with this page's token, bound to the key u, that
/// gave the link's images the link's labels as a person's.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerUndoTests {
    static let copy: (site: WardrobeSite, server: HTTPServer, path: String) = {
        do { return try ServedCatalogue.shared.servedCopy() } catch { fatalError("cannot copy the served catalogue: \(error)") }
    }()

    var client: RawHTTP { RawHTTP(port: ServerUndoTests.copy.server.port) }
    var token: String { ServerUndoTests.copy.site.guardian.token }
    func catalogue() throws -> Catalogue { try Catalogue(path: ServerUndoTests.copy.path, mode: .readOnly) }
    func corrections() throws -> Int64 { try catalogue().database.scalarInt("SELECT count(*) FROM corrections") ?? -1 }

    /// The value of the undo form's `undo` field on a page, if it offers one.
    static func undoField(_ html: String) -> String? {
        html.components(separatedBy: "name=\"undo\" value=\"").dropFirst().first.map { String($0.prefix { $0 != "\"" }) }
    }

    /// A page offers no undo: no "Saved", no restore form, nothing bound to u.
    static func expectNoUndo(_ html: String, _ comment: Comment) {
        #expect(!html.contains("Saved"), comment)
        #expect(!html.contains("value=\"restore\""), comment)
        #expect(!html.contains("data-key=\"u\""), comment)
    }

    func post(_ route: String, _ fields: [(String, String)], json: Bool = false) throws -> RawHTTP.Response {
        try client.post(route, form: [("token", token)] + fields, origin: client.ownOrigin, accept: json ? "application/json" : nil)
    }

    /// The forged links of the adversarial pass, opened as a visit from another site and as
    /// one from this one: each page is shown without any undo.
    @Test(arguments: ["/?undo=1:Bag,2:Bag,3:Bag", "/?undo=1", "/image/1?undo=5", "/review?undo=5", "/review?undo=1:Bag",
                      "/review?view=grid&undo=5", "/image/1?undo=00000000000000000000000000000000"])
    func anUndoThisServerDidNotGiveIsNoUndo(target: String) throws {
        let crossSite = ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"]
        for headers in [crossSite, [:]] {
            let response = try client.get(target, headers: headers)
            #expect(response.status == 200, "\(target): \(response.status)")
            Self.expectNoUndo(response.text, "\(target)")
        }
        // `was` is no parameter: it named the label an Undo would give.
        #expect(try client.get("/image/1?undo=5&was=Sandal").status == 400)
    }

    /// The forged form itself, as a browser would post it from such a page: nothing is recorded.
    @Test func aRestoreOfAnUndoThisServerDidNotGiveChangesNothing() throws {
        let before = try corrections()
        for (route, fields) in [("/label-many", [("action", "restore"), ("undo", "1:Bag,2:Bag,3:Bag")]),
                                ("/label-many", [("action", "restore"), ("undo", "3:Bag,3:Coat,3:")]),
                                ("/label", [("id", "5"), ("action", "restore"), ("label", "Sandal")]),
                                ("/label", [("id", "5"), ("action", "restore"), ("undo", "5")])] {
            let response = try post(route, fields)
            #expect(response.status == 400, "\(route) \(fields): \(response.status)")
            #expect(response.text.contains("nothing to undo"), "\(response.text)")
        }
        #expect(try corrections() == before, "a forged undo recorded a label")
    }

    /// A real act: its page offers the undo, which puts back what the act changed, once; an
    /// undo of one image's act names that image.
    @Test func anActsUndoUndoesItOnce() throws {
        let item = try #require(try catalogue().galleryPage(GalleryQuery(corrected: false, order: .uncertain, limit: 2)).first)
        let done = try post("/label", [("id", "\(item.image)"), ("action", "label"), ("label", "Bag"), ("undoable", "1"),
                                       ("back", "/review")])
        let location = try #require(done.header("location"))
        let page = try client.get(location).text
        #expect(page.contains("<span>Saved.</span><button type=\"submit\" data-key=\"u\">"))
        let undo = try #require(Self.undoField(page))
        #expect(location.hasSuffix("undo=\(undo)") && undo.count == 32, "128 random bits: \(undo)")
        // Another image's form cannot spend it.
        let other = try post("/label", [("id", "\(item.image.rawValue + 1)"), ("action", "restore"), ("undo", undo)])
        #expect(other.status == 400 || other.status == 404, "\(other.status)")
        #expect(try catalogue().personLabel(of: item.image) == 8)
        #expect(try post("/label", [("id", "\(item.image)"), ("action", "restore"), ("undo", undo)]).status == 303)
        #expect(try catalogue().personLabel(of: item.image) == nil)
        // Once: the page of the act offers it no more, and a second Undo records nothing.
        Self.expectNoUndo(try client.get(location).text, "after undo")
        let before = try corrections()
        #expect(try post("/label", [("id", "\(item.image)"), ("action", "restore"), ("undo", undo)]).status == 400)
        #expect(try corrections() == before)
        // An act not asked to be undoable is not kept.
        let plain = try post("/label", [("id", "\(item.image)"), ("action", "confirm")], json: true)
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(plain.body)) as? [String: Any])
        #expect(reply["undo"] is NSNull)
        _ = try post("/label", [("id", "\(item.image)"), ("action", "clear")])
    }

    /// Restoring names each image once: a list naming one twice (which the URL's undo once
    /// could, `3:Bag,3:Coat,3:`, applied out of order) is refused before anything is written.
    @Test func aRestoreNamingAnImageTwiceIsRefused() throws {
        let setup = WardrobeSetup(environment: [:], executable: URL(
            fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/release/wardrobe"))
        let opened = try setup.openCatalogue(explicit: ServerUndoTests.copy.path, mode: .readWrite, sharedByThreads: false)
        let image = try #require(try catalogue().galleryPage(GalleryQuery(limit: 1)).first).image.rawValue
        let before = try corrections()
        #expect(throws: WardrobeError.invalidArgument("image \(image) is named twice")) {
            try opened.restore([PersonLabelChange(image: image, before: 8, after: nil),
                                PersonLabelChange(image: image, before: 4, after: nil)], command: "serve")
        }
        #expect(try corrections() == before)
    }

    /// Undo puts back only what its act set and what still stands: an image labelled again
    /// since (in the terminal) keeps its newer label, where Undo wiped it and said it was
    /// done; an image forgotten since no longer keeps the rest of the act from being undone.
    @Test func undoLeavesALabelGivenSinceAndGoesOnPastAForgottenImage() throws {
        let setup = WardrobeSetup(environment: [:], executable: URL(
            fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/release/wardrobe"))
        let opened = try setup.openCatalogue(explicit: ServerUndoTests.copy.path, mode: .readWrite, sharedByThreads: false)
        let images = try catalogue().galleryPage(GalleryQuery(limit: 3)).map(\.image)
        try #require(images.count == 3)
        let act = try opened.label(.label(1), images: images.map(\.rawValue), command: "serve")
        _ = try opened.label(.label(8), images: [images[0].rawValue], command: "label")   // given since, in the terminal
        let missing = PersonLabelChange(image: 999_999, before: nil, after: 1)            // forgotten since
        try opened.restore(act + [missing], command: "serve")
        #expect(try catalogue().personLabel(of: images[0]) == 8, "the newer label stands")
        for (image, change) in zip(images.dropFirst(), act.dropFirst()) {
            #expect(try catalogue().personLabel(of: image) == change.before, "image \(image): put back")
        }
        #expect(throws: WardrobeError.invalidArgument("nothing undone: the images of that act were labelled again since")) {
            try opened.restore([act[0]], command: "serve")
        }
    }

    /// SQLite gave a new image the id of the one forgotten last when that was the highest
    /// (PostgreSQL never gave an id twice, a copy from it to SQLite again), and a catalogue
    /// that forgot it before schema step 30, which keeps the highest retired id, still does
    /// once. A cleared label's Undo, pressed after the image was forgotten in the terminal and
    /// a new photo imported there, put the cleared label on the new photo and said it was undone.
    @Test func undoPassesOverAnIdAnotherPhotoTookSince() throws {
        let copy = try ServedCatalogue.shared.servedCopy()
        let binary = FileManager.default.currentDirectoryPath + "/.build/release/wardrobe"
        let opened = try WardrobeSetup(environment: [:], executable: URL(fileURLWithPath: binary))
            .openCatalogue(explicit: copy.path, mode: .readWrite, sharedByThreads: false)
        func highestID() throws -> Int64? {
            try Catalogue(path: copy.path, mode: .readOnly).database.scalarInt("SELECT max(id) FROM images")
        }
        let last = try #require(try highestID())
        _ = try opened.label(.label(1), images: [last], command: "serve")
        let act = try opened.label(.clear, images: [last], command: "serve")
        let kind = URL(fileURLWithPath: try #require(ServedCatalogue.photos)).appendingPathComponent("dress")
        let unseen = kind.appendingPathComponent(try FileManager.default.contentsOfDirectory(atPath: kind.path).sorted()[6])
        for arguments in [["forget", "--yes", String(last)], ["import", "--quiet", unseen.path]] {
            // Forgotten as before step 30: nothing kept of its id.
            if arguments[0] == "import" { try Catalogue(path: copy.path).database.execute("DELETE FROM retired_image_ids") }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments + ["--db", copy.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(arguments)")
        }
        try #require(try highestID() == last, "the new photo took the forgotten image's id")
        #expect(throws: WardrobeError.notFound("the images of that act")) { try opened.restore(act, command: "serve") }
        #expect(try Catalogue(path: copy.path, mode: .readOnly).personLabel(of: ImageID(last)) == nil)
    }
}
