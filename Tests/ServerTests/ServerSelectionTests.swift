import Catalogue
import Foundation
import Testing
@testable import Wardrobe
import Server

/// The gallery's multi-select, on a copy of the served catalogue: checkboxes in
/// one POST form give one label (or confirm) to every image picked, under the
/// token and Origin rules of every form, and one Undo puts every image's
/// person label back as it was, whatever each one had.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerSelectionTests {
    static let copy: (site: WardrobeSite, server: HTTPServer, path: String) = {
        do { return try ServedCatalogue.shared.servedCopy() } catch { fatalError("cannot copy the served catalogue: \(error)") }
    }()

    var client: RawHTTP { RawHTTP(port: ServerSelectionTests.copy.server.port) }
    var token: String { ServerSelectionTests.copy.site.guardian.token }
    func catalogue() throws -> Catalogue { try Catalogue(path: ServerSelectionTests.copy.path, mode: .readOnly) }

    func personLabels(_ ids: [Int64]) throws -> [Int?] {
        let catalogue = try catalogue()
        return try ids.map { try catalogue.personLabel(of: ImageID($0)) }
    }

    func post(_ fields: [(String, String)], origin: String? = nil, token: String? = nil) throws -> RawHTTP.Response {
        try client.post("/label-many", form: [("token", token ?? self.token)] + fields, origin: origin ?? client.ownOrigin)
    }

    @Test func oneLabelForEveryPickedImageAndOneUndoForAll() throws {
        let page = try client.get("/?per=200").text
        #expect(page.contains("<form id=\"pick\" class=\"inline bulk\" method=\"post\" action=\"/label-many\">"))
        let ids = Array(ServerPageTests.cardIDs(page).prefix(4))
        #expect(ids.count == 4)
        #expect(ids.allSatisfy { page.contains("form=\"pick\" name=\"image-\($0)\"") })
        // One of them already has a person's label, which undo must give back as it was.
        _ = try client.post("/label", form: [("token", token), ("id", "\(ids[0])"), ("action", "label"), ("label", "Coat")],
                            origin: client.ownOrigin)
        let before = try personLabels(ids)
        #expect(before == [4, nil, nil, nil])

        let picked = ids.map { ("image-\($0)", "1") }
        let done = try post([("action", "label"), ("label", "Bag"), ("back", "/?per=200")] + picked)
        #expect(done.status == 303)
        #expect(try personLabels(ids) == [8, 8, 8, 8])
        let location = try #require(done.header("location"))
        #expect(location.hasPrefix("/?per=200&undo="))
        let after = try client.get(location).text
        #expect(after.contains("Saved for 4 images."))
        #expect(after.contains("data-key=\"u\"><kbd>u</kbd>Undo</button>"))
        // Undo, as the page's form posts it: one request, every label back.
        let undo = try #require(after.components(separatedBy: "name=\"undo\" value=\"").dropFirst().first?.prefix { $0 != "\"" })
        let undone = try post([("action", "restore"), ("undo", String(undo)), ("back", "/?per=200")])
        #expect(undone.status == 303 && undone.header("location") == "/?per=200")
        #expect(try personLabels(ids) == before)

        // Confirm: each image gets the model's own label, as a person's.
        let confirmed = try post([("action", "confirm"), ("back", "/")] + picked.dropFirst())
        #expect(confirmed.status == 303)
        let catalogue = try catalogue()
        for id in ids.dropFirst() {
            #expect(try catalogue.personLabel(of: ImageID(id)) == catalogue.currentClassification(of: ImageID(id))?.label)
        }
    }

    @Test func theSelectionFormIsHeldToTheRulesOfEveryForm() throws {
        let ids = Array(ServerPageTests.cardIDs(try client.get("/").text).prefix(2))
        let before = try personLabels(ids)
        let picked = ids.map { ("image-\($0)", "1") }
        let label = [("action", "label"), ("label", "Sandal")]
        #expect(try post(label + picked, origin: "http://evil.example").status == 403)
        #expect(try post(label + picked, token: "stale").status == 403)
        #expect(try client.post("/label-many", form: label + picked, origin: nil).status == 403)
        #expect(try post(label).status == 400, "nothing picked")
        #expect(try post([("action", "label"), ("label", "Blazerish")] + picked).status == 400)
        // The image that is not there is named, and so is what became of the others: it said
        // "one of the images chosen is not in the catalogue".
        let missing = try post(label + picked + [("image-999999999", "1")])
        #expect(missing.status == 404)
        #expect(missing.text.contains("Not found: image 999999999 is not in the catalogue (1 of the 3 chosen); "
                                      + "none was labelled."), "\(missing.text)")
        #expect(try post([("action", "restore"), ("undo", "1:Nonesuch")]).status == 400)
        #expect(try post([("action", "restore"), ("undo", "\(ids[0]):Bag")]).status == 400, "an undo the server did not give")
        #expect(try post(label + [("image-007", "1")]).status == 400)
        // A checkbox's field with another value than the page's 1 picked the image all the same.
        for value in ["0", "", "off"] {
            let refused = try post(label + [("image-\(ids[0])", value)])
            #expect(refused.status == 400, "image-N=\(value)")
            #expect(refused.text.contains("Bad request: image-\(ids[0]) is 1 when the image is picked, or not sent"), "\(refused.text)")
        }
        #expect(try personLabels(ids) == before, "a refused act changed a label")
        #expect(!(try client.get("/?undo=oops").text.contains("Saved")), "an undo the server did not give is none")
    }
}
