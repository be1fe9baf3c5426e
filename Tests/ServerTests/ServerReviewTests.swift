import Catalogue
import Foundation
import Testing
@testable import Wardrobe
import Server

/// Review's keys and forms, and the JSON the page's script gets for an act,
/// on a copy of the served catalogue (these tests change labels).
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerReviewTests {
    static let copy: (site: WardrobeSite, server: HTTPServer, path: String) = {
        do { return try ServedCatalogue.shared.servedCopy() } catch { fatalError("cannot copy the served catalogue: \(error)") }
    }()

    var client: RawHTTP { RawHTTP(port: ServerReviewTests.copy.server.port) }
    var token: String { ServerReviewTests.copy.site.guardian.token }
    func catalogue() throws -> Catalogue { try Catalogue(path: ServerReviewTests.copy.path, mode: .readOnly) }

    /// What `wardrobe list --label NAME` lists.
    func listed(_ label: Int) throws -> [ImageListing.Row] {
        var rows: [ImageListing.Row] = []
        try ImageListing(catalogue: try catalogue()).forEach(.init(filter: ImageFilter(label: label))) { rows.append($0) }
        return rows
    }

    func act(_ fields: [(String, String)], json: Bool) throws -> RawHTTP.Response {
        try client.post("/label", form: [("token", token)] + fields, origin: client.ownOrigin,
                        accept: json ? "application/json" : nil)
    }

    @Test func oneAtATimeHasAKeyAndANamedButtonForEveryLabelNoneConfirmAndMoves() throws {
        let html = try client.get("/review").text
        for label in 0...Catalogue.noneLabel {
            let name = HTML.escape(LabelMatcher.name(of: label))
            let key = label == Catalogue.noneLabel ? "n" : label == 9 ? "0" : String(label + 1)
            #expect(html.contains("data-key=\"\(key)\"><kbd>\(key)</kbd>\(name)</button>"), "no button for \(name) on key \(key)")
        }
        // Confirm is the primary button: its class is markup, not escaped text.
        #expect(html.contains("<button type=\"submit\" class=\"primary\" data-key=\"enter\"><kbd>Enter</kbd>Confirm "))
        #expect(html.contains("data-key=\"right\" rel=\"next\""))
        // From the second image, the left arrow goes back to the first.
        let first = try catalogue().galleryPage(GalleryQuery(corrected: false, order: .uncertain, limit: 2))
        try #require(first.count == 2)
        let second = try client.get("/review?at=\(first[1].image)").text
        #expect(second.contains("<a href=\"/review?at=\(first[0].image)\" data-key=\"left\" rel=\"prev\">"))
    }

    @Test func gridGivesEveryCardItsFormWithTheLabelKeysAndConfirm() throws {
        let html = try client.get("/review?view=grid&per=200").text
        let uncorrected = try catalogue().galleryPage(GalleryQuery(corrected: false, order: .uncertain, limit: 200))
        #expect(ServerPageTests.cardIDs(html) == uncorrected.map(\.image.rawValue))
        #expect(html.contains("data-review=\"grid\""))
        let forms = html.components(separatedBy: "<li class=\"card\"").dropFirst()
        #expect(forms.count == uncorrected.count)
        for card in forms {
            #expect(card.components(separatedBy: "<option ").count - 1 == Catalogue.noneLabel + 1)
            #expect(card.contains("data-key=\"n\">n none</option>"))
            #expect(card.contains("<button type=\"submit\" name=\"action\" value=\"confirm\">"))
            #expect(card.contains("name=\"undoable\" value=\"1\""))
        }
    }

    @Test func gridActWithoutScriptIsAFormWhoseUndoLeadsBackToTheGrid() throws {
        let item = try #require(try catalogue().galleryPage(GalleryQuery(corrected: false, order: .uncertain, limit: 1)).first)
        let response = try act([("id", "\(item.image)"), ("action", "confirm"), ("label", "Bag"), ("undoable", "1"),
                                ("back", "/review?view=grid")], json: false)
        #expect(response.status == 303)
        let location = try #require(response.header("location"))
        #expect(location.hasPrefix("/review?view=grid&undo="))
        #expect(try listed(item.label).first { $0.id == item.image.rawValue }?.labelledByPerson == true)
        let grid = try client.get(location).text
        #expect(grid.contains("name=\"action\" value=\"restore\""))
        #expect(grid.contains("name=\"back\" value=\"/review?view=grid\""))
        #expect(!ServerPageTests.cardIDs(grid).contains(item.image.rawValue), "a labelled image left review")
        let undo = try act([("id", "\(item.image)"), ("action", "restore"), ("undo", try #require(ServerUndoTests.undoField(grid))),
                            ("back", "/review?view=grid")], json: false)
        #expect(undo.header("location") == "/review?view=grid")
        #expect(try listed(item.label).first { $0.id == item.image.rawValue }?.labelledByPerson == false)
    }

    @Test func scriptGetsJSONSayingTheLabelNowWithEveryStringEscaped() throws {
        let catalogue = try catalogue()
        let hostile = try #require(try catalogue.knownPaths().first { $0.path.hasSuffix("/" + ServedCatalogue.hostileNames[0]) })
        let model = try #require(try catalogue.currentClassification(of: hostile.image)).label
        let target = (model + 3) % 10
        let response = try act([("id", "\(hostile.image)"), ("action", "label"), ("label", LabelMatcher.name(of: target)),
                                ("undoable", "1"), ("back", "/review?at=\(hostile.image)")], json: true)
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(!response.text.contains("<") && !response.text.contains(">"), "raw markup in \(response.text)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(reply["id"] as? Int == Int(hostile.image.rawValue))
        #expect(reply["label"] as? String == LabelMatcher.name(of: target))
        #expect(reply["person"] as? Bool == true)
        #expect(reply["model"] as? String == LabelMatcher.name(of: model))
        #expect(reply["was"] as? String == "")
        #expect(reply["name"] as? String == ServedCatalogue.hostileNames[0])
        let kept = try #require(reply["undo"] as? String)
        #expect(reply["next"] as? String == "/review?at=\(hostile.image)&undo=\(kept)")
        #expect(try listed(target).contains { $0.id == hostile.image.rawValue && $0.labelledByPerson })
        // Undo through the script: the person's label is gone again.
        let undo = try act([("id", "\(hostile.image)"), ("action", "restore"), ("undo", kept)], json: true)
        let undone = try #require(try JSONSerialization.jsonObject(with: Data(undo.body)) as? [String: Any])
        #expect(undone["person"] as? Bool == false)
        #expect(undone["label"] as? String == LabelMatcher.name(of: model))
        #expect(try !listed(target).contains { $0.id == hostile.image.rawValue })
        // The script's request is held to the same rules: a foreign Origin changes nothing.
        let before = try catalogue.database.scalarInt("SELECT count(*) FROM corrections")
        let foreign = try client.post("/label", form: [("token", token), ("id", "\(hostile.image)"), ("action", "confirm")],
                                      origin: "http://evil.example", accept: "application/json")
        #expect(foreign.status == 403)
        #expect(try catalogue.database.scalarInt("SELECT count(*) FROM corrections") == before)
    }

    @Test func galleryFiltersByWhoLabelledAndByConfidence() throws {
        let all = try catalogue().galleryPage(GalleryQuery(order: .uncertain, limit: 1000))
        let item = try #require(all.first { $0.correctedLabel == nil })
        _ = try act([("id", "\(item.image)"), ("action", "label"), ("label", "none")], json: true)
        defer { _ = try? act([("id", "\(item.image)"), ("action", "clear")], json: true) }
        let corrected = try catalogue().galleryPage(GalleryQuery(corrected: true, order: .newest, limit: 1000))
        #expect(corrected.contains { $0.image == item.image })
        #expect(ServerPageTests.cardIDs(try client.get("/?corrected=yes&per=200").text) == corrected.map(\.image.rawValue))
        let modelOnly = ServerPageTests.cardIDs(try client.get("/?corrected=no&per=200").text)
        #expect(modelOnly.count == all.count - corrected.count)
        #expect(!modelOnly.contains(item.image.rawValue))
        // Confidence from 40 to 90 %: exactly the images the model is that sure of, bounds included.
        let html = try client.get("/?min=40&max=90&per=200&sort=confident").text
        let expected = all.filter { (0.4...0.9).contains($0.confidence) }.sorted { ($0.confidence, $0.image.rawValue) > ($1.confidence, $1.image.rawValue) }
        #expect(!expected.isEmpty && expected.count < all.count, "the photos should spread over confidences")
        #expect(ServerPageTests.cardIDs(html) == expected.map(\.image.rawValue))
        #expect(try client.get("/?min=101").status == 400)
        #expect(try client.get("/?corrected=maybe").status == 400)
    }

    @Test func jsonStringsCarryNoMarkupAndRoundTrip() throws {
        let nasty = "<script>alert('1')</script> & \"q\" \\ \n\u{2028}\u{1}"
        let text = JSONText.object([("name", .string(nasty)), ("n", .integer(3)), ("ok", .bool(true)), ("x", .null)])
        #expect(!text.contains("<") && !text.contains(">") && !text.contains("&") && !text.contains("'"))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(decoded["name"] as? String == nasty)
        #expect(decoded["n"] as? Int == 3)
        #expect(decoded["ok"] as? Bool == true)
    }

    /// The image page has review's keys: a key per label, none and Enter, each undoable with u.
    @Test func imagePageHasReviewsKeysAndUndo() throws {
        let item = try #require(try catalogue().galleryPage(GalleryQuery(corrected: false, order: .uncertain, limit: 1)).first)
        let html = try client.get("/image/\(item.image)").text
        for label in 0...Catalogue.noneLabel {
            let key = label == Catalogue.noneLabel ? "n" : label == 9 ? "0" : String(label + 1)
            #expect(html.contains("data-key=\"\(key)\"><kbd>\(key)</kbd>\(HTML.escape(LabelMatcher.name(of: label)))</button>"))
        }
        #expect(html.contains("<button type=\"submit\" class=\"primary\" data-key=\"enter\"><kbd>Enter</kbd>Confirm "))
        #expect(html.contains("<input type=\"hidden\" name=\"undoable\" value=\"1\">"))
        let done = try act([("id", "\(item.image)"), ("action", "label"), ("label", "Bag"), ("back", "/image/\(item.image)"),
                            ("undoable", "1")], json: false)
        let location = try #require(done.header("location"))
        #expect(done.status == 303 && location.hasPrefix("/image/\(item.image)?undo="))
        let after = try client.get(location).text
        #expect(after.contains("name=\"back\" value=\"/image/\(item.image)\"><span>Saved.</span><button type=\"submit\" data-key=\"u\">"))
        #expect(try catalogue().personLabel(of: item.image) == 8)
        _ = try act([("id", "\(item.image)"), ("action", "restore"), ("undo", try #require(ServerUndoTests.undoField(after))),
                     ("back", "/image/\(item.image)")], json: false)
        #expect(try catalogue().personLabel(of: item.image) == nil)
        #expect(try client.get("/image/\(item.image)?undo=\(item.image)&was=Blazerish").status == 400, "was is no parameter")
    }

    /// Past the last image of the order (the one the model is surest of), review goes on
    /// from the least sure: Next leads there, and so does an act on the last image. It said
    /// "Nothing left to review: every image has a person's label" with hundreds unlabelled.
    @Test func pastTheLastImageReviewStartsAgainFromTheLeastSure() throws {
        let unlabelled = try catalogue().galleryPage(GalleryQuery(corrected: false, order: .uncertain, limit: 1000))
        let (first, last) = (try #require(unlabelled.first), try #require(unlabelled.last))
        try #require(unlabelled.count >= 3)
        let page = try client.get("/review?at=\(last.image)").text
        #expect(page.contains("<a href=\"/review?at=\(first.image)\" data-key=\"right\" rel=\"next\">"), "Next leads to the start")
        let back = try #require(page.components(separatedBy: "name=\"back\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        let done = try act([("id", "\(last.image)"), ("action", "confirm"), ("undoable", "1"),
                            ("back", String(back).replacingOccurrences(of: "&amp;", with: "&"))], json: false)
        defer { _ = try? act([("id", "\(last.image)"), ("action", "clear")], json: false) }
        let after = try client.get(try #require(done.header("location"))).text
        #expect(!after.contains("Nothing left"), "\(unlabelled.count - 1) images have no person's label")
        #expect(after.contains("<img class=\"large\" src=\"/thumb/\(first.sha256.hex)\""), "review starts again from the least sure")
        #expect(after.contains("<span>Saved.</span>"), "with the undo of the act")
        // From past the end of the order, likewise.
        #expect(try client.get("/review?from=1_-9223372036854775808").text.contains("/thumb/\(first.sha256.hex)"))
        // A search that chooses no image at all says so; it said that every image chosen had a
        // person's label.
        for page in ["/review?q=no-such-photo-anywhere", "/review?view=grid&q=no-such-photo-anywhere"] {
            #expect(try client.get(page).text.contains("Nothing to review: these filters choose no image."), "\(page)")
        }
    }

    /// A catalogue holding no image (serve started before any import, or every image
    /// forgotten) said "Nothing left to review: every image has a person's label".
    @Test func aCatalogueWithNoImageSaysItHoldsNoneRatherThanThatAllAreLabelled() throws {
        let path = ServedCatalogue.shared.root.appendingPathComponent("empty-\(UUID().uuidString).sqlite").path
        _ = try Catalogue(path: path)
        let site = try WardrobeSite.over(path, readOnly: false)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: site)
        defer { server.stop() }
        for page in ["/review", "/review?view=grid", "/review?view=grid&step=confirm"] {
            let text = try RawHTTP(port: server.port).get(page).text
            #expect(text.contains("Nothing to review: the catalogue holds no image yet"), "\(page): \(text)")
            #expect(!text.contains("has a person"), "\(page)")
        }
    }
}
