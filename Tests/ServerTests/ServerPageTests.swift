import Catalogue
import Foundation
import Imaging
import Testing
@testable import Wardrobe
import Server

/// What the pages show, read over HTTP from the served catalogue of real photos.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerPageTests {
    let served = ServedCatalogue.shared

    /// The label shown on each card, in page order.
    static func cardLabels(_ html: String) -> [String] {
        html.components(separatedBy: "<li class=\"card\"").dropFirst().compactMap { card in
            guard let start = card.range(of: "<span class=\"label"), let close = card[start.upperBound...].range(of: ">"),
                  let end = card[close.upperBound...].range(of: "</span>") else { return nil }
            return String(card[close.upperBound..<end.lowerBound]).replacingOccurrences(of: " ✎", with: "")
        }
    }

    static func cardIDs(_ html: String) -> [Int64] {
        html.components(separatedBy: "<li class=\"card\" data-id=\"").dropFirst().compactMap { Int64($0.prefix { $0.isNumber }) }
    }

    @Test func galleryListsEveryImageOfALabelWithThatLabel() throws {
        let catalogue = try served.catalogue()
        let counts = try catalogue.labelCounts().filter { $0.value > 0 }
        #expect(counts.count >= 2, "the photos should fall under several labels")
        for (label, count) in counts {
            let name = LabelMatcher.name(of: label)
            let html = try served.client.get("/?label=\(Link.encode(name))&per=200").text
            let labels = ServerPageTests.cardLabels(html)
            #expect(labels.count == count, "\(name): \(labels.count) cards, catalogue says \(count)")
            #expect(labels.allSatisfy { HTML.escape(name) == $0 }, "\(name): \(labels)")
            #expect(html.contains("\(HTML.escape(name)) (\(count))"))
        }
    }

    @Test(arguments: GalleryQuery.Order.allCases)
    func keysetPagesWalkTheWholeCatalogueOnce(order: GalleryQuery.Order) throws {
        let catalogue = try served.catalogue()
        let total = try catalogue.countCurrentClassifications()
        var seen: [Int64] = []
        var target = "/?sort=\(order.rawValue)&per=5"
        for _ in 0..<100 {
            let html = try served.client.get(target).text
            seen += ServerPageTests.cardIDs(html)
            guard let next = html.components(separatedBy: "<a href=\"").dropFirst()
                .first(where: { $0.contains("rel=\"next\"") }) else { break }
            target = String(next.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        }
        #expect(seen.count == total)
        #expect(Set(seen).count == total)
        let expected = try catalogue.galleryPage(GalleryQuery(order: order, limit: 1000)).map(\.image.rawValue)
        #expect(seen == expected)
        if order == .uncertain {
            let confidences = try catalogue.galleryPage(GalleryQuery(order: order, limit: 1000)).map(\.confidence)
            #expect(confidences == confidences.sorted())
        }
    }

    @Test func imagePageShowsHistoryRowsAndTopThree() throws {
        let catalogue = try served.catalogue()
        let item = try #require(try catalogue.currentClassifications().first)
        let details = try ImageDetails(.id(item.image.rawValue), in: catalogue)
        let html = try served.client.get("/image/\(item.image)").text
        let rows = html.components(separatedBy: "<tr class=\"classification\"").count - 1
            + html.components(separatedBy: "<tr class=\"correction").count - 1
        #expect(rows == details.history.count + details.corrections.count)
        #expect(details.history.count >= 1)
        let bars = html.components(separatedBy: "<div class=\"bar\">").dropFirst().map { $0.prefix(200) }
        #expect(bars.count == 3)
        for (bar, guess) in zip(bars, details.top) {
            #expect(bar.contains("<span>\(HTML.escape(guess.label))</span>"))
        }
        #expect(html.contains("/tensor/\(item.image).png"))
        // The path, its folder a link to the gallery of that folder.
        let path = try #require(details.paths.first?.path)
        let slash = try #require(path.lastIndex(of: "/"))
        let folder = String(path[..<slash])
        #expect(html.contains("<a href=\"\(HTML.escape(Link("/", [("folder", folder)]).url))\" title=\"every image in this folder\">"
                              + HTML.escape(folder) + "</a>" + HTML.escape(String(path.dropFirst(folder.count)))))
        #expect(html.contains(">present<"))
        // The larger views it links to: a view never enlarges, so a photo of 960 pixels or less is
        // offered once, at its own size (it was offered at 960 and 1600 px, both that same picture).
        let longest = max(details.width, details.height)
        try #require(longest <= 960, "the validation photos are at most 960 pixels")
        #expect(html.contains("Larger: <a href=\"/original/\(item.image)?w=960\">\(longest) px, its own size</a> (from"),
                "\(html.components(separatedBy: "Larger:").dropFirst().first?.prefix(200) ?? "")")
        #expect(!html.contains("1600 px"))
    }

    @Test func thumbnailAnswersWithStoredBytesAndItsHashAsETag() throws {
        let catalogue = try served.catalogue()
        let item = try #require(try catalogue.currentClassifications().first)
        let stored = try #require(try catalogue.thumbnail(of: item.image))
        let response = try served.client.get("/thumb/\(item.sha256.hex)")
        #expect(response.status == 200)
        #expect(response.body == stored)
        #expect(response.header("etag") == "\"\(item.sha256.hex)\"")
        #expect(response.header("content-type") == "image/jpeg" || response.header("content-type") == "image/png")
        let again = try served.client.get("/thumb/\(item.sha256.hex)", headers: ["If-None-Match": "\"\(item.sha256.hex)\""])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        let none = String(repeating: "ab", count: 32)
        #expect(try served.client.get("/thumb/" + none).status == 404)
        // Whatever the browser says it has: a hash no image has is not found (it was 304).
        #expect(try served.client.get("/thumb/" + none, headers: ["If-None-Match": "\"\(none)\""]).status == 404)
        // One address per thumbnail, as for images: upper-case hex and a ".jpg" were aliases.
        for alias in [item.sha256.hex.uppercased(), item.sha256.hex + ".jpg"] {
            #expect(try served.client.get("/thumb/" + alias).status == 404, "\(alias)")
        }
    }

    @Test func tensorIsA28By28PictureEnlarged() throws {
        let item = try #require(try served.catalogue().currentClassifications().first)
        let response = try served.client.get("/tensor/\(item.image).png")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "image/png")
        let decoded = try ImageDecoderCheck.size(response.body)
        #expect(decoded.0 == 168 && decoded.1 == 168)
    }

    /// On a copy of the served catalogue: other suites count the shared one's corrections
    /// while this one writes.
    @Test func correctionFromReviewIsInTheCatalogueAtOnceAndUndoPutsItBack() throws {
        let copy = try served.servedCopy()
        defer { copy.server.stop() }
        let client = RawHTTP(port: copy.server.port)
        func written() throws -> Catalogue { try Catalogue(path: copy.path, mode: .readOnly) }
        let review = try client.get("/review").text
        let catalogue = try written()
        let expected = try #require(try catalogue.galleryPage(GalleryQuery(corrected: false, order: .uncertain, limit: 1)).first)
        #expect(review.contains("/thumb/\(expected.sha256.hex)"), "review starts with the least sure uncorrected image")
        let target = (expected.label + 1) % 10
        let name = LabelMatcher.name(of: target)
        let response = try client.post("/label", form: [("token", copy.site.guardian.token), ("id", "\(expected.image)"),
                                                        ("action", "label"), ("label", name), ("undoable", "1"),
                                                        ("back", "/review")], origin: client.ownOrigin)
        #expect(response.status == 303)
        #expect(response.header("location")?.hasPrefix("/review?undo=") == true)
        // What `wardrobe list --label NAME` reads.
        var rows: [ImageListing.Row] = []
        try ImageListing(catalogue: try written()).forEach(.init(filter: ImageFilter(label: target))) { rows.append($0) }
        let row = try #require(rows.first { $0.id == expected.image.rawValue })
        #expect(row.labelledByPerson)
        #expect(try written().corrections(of: expected.image).last?.command == "serve")
        // The next review page offers to undo, and no longer shows the image.
        let next = try client.get(try #require(response.header("location"))).text
        #expect(next.contains("name=\"action\" value=\"restore\""))
        #expect(!next.contains("<a href=\"/image/\(expected.image)\"><img class=\"large\""))
        let act = try #require(ServerUndoTests.undoField(next))
        let undo = try client.post("/label", form: [("token", copy.site.guardian.token), ("id", "\(expected.image)"),
                                                    ("action", "restore"), ("undo", act), ("back", "/review")],
                                   origin: client.ownOrigin)
        #expect(undo.status == 303)
        #expect(try written().currentClassification(of: expected.image)?.correctedLabel == nil)
    }

    /// A card shows the model's confidence in its own label: beside a person's other label
    /// it names that label ("Coat ✎", "Shirt 90%"), where "Coat ✎ 90%" read as sureness of
    /// Coat; beside a person's label the model agrees with, the figure alone, as before.
    @Test func aCardNamesTheModelsLabelBesideAPersonsOther() throws {
        let copy = try served.servedCopy()
        defer { copy.server.stop() }
        let client = RawHTTP(port: copy.server.port)
        let images = try Catalogue(path: copy.path, mode: .readOnly).galleryPage(GalleryQuery(corrected: false, limit: 2))
        let (other, same) = (try #require(images.first), try #require(images.last))
        for (image, label) in [(other, (other.label + 1) % 10), (same, same.label)] {
            let response = try client.post("/label", form: [("token", copy.site.guardian.token), ("id", "\(image.image)"),
                                                            ("action", "label"), ("label", LabelMatcher.name(of: label)),
                                                            ("back", "/")], origin: client.ownOrigin)
            #expect(response.status == 303)
        }
        let html = try client.get("/?corrected=yes").text
        func caption(_ image: Int64) throws -> String {
            let card = try #require(html.components(separatedBy: "<li class=\"card\" data-id=\"\(image)\"").dropFirst().first)
            return card.components(separatedBy: "<div class=\"caption muted path\">")[0]
        }
        let percent = { (confidence: Double) in "\(Int((confidence * 100).rounded()))%" }
        let (otherCaption, sameCaption) = (try caption(other.image.rawValue), try caption(same.image.rawValue))
        #expect(otherCaption.contains("<span class=\"model\" title=\"the model's label and its confidence\">"
                                      + "\(LabelMatcher.name(of: other.label)) \(percent(other.confidence))</span>"), "\(otherCaption)")
        #expect(!sameCaption.contains("class=\"model\"") && sameCaption.contains(" \(percent(same.confidence))</span>"),
                "\(sameCaption)")
    }

    @Test func statsDrawsOneBarPerLabel() throws {
        let html = try served.client.get("/stats").text
        #expect(html.contains("<svg class=\"chart\""))
        #expect(html.components(separatedBy: "<rect ").count - 1 == 10)
        #expect(html.contains("Ankle boot"))
    }

    @Test func readOnlySiteShowsNoFormsAndRefusesChanges() throws {
        let site = try WardrobeSite.over(served.cataloguePath, readOnly: true)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: site)
        defer { server.stop() }
        let client = RawHTTP(port: server.port)
        let item = try #require(try served.catalogue().currentClassifications().first)
        #expect(!(try client.get("/image/\(item.image)").text.contains("action=\"/label\"")))
        let before = try served.correctionCount()
        let response = try client.post("/label", form: [("token", site.guardian.token), ("id", "\(item.image)"),
                                                        ("action", "confirm")], origin: client.ownOrigin)
        #expect(response.status == 403)
        #expect(try served.correctionCount() == before)
    }
}

enum ImageDecoderCheck {
    static func size(_ bytes: [UInt8]) throws -> (Int, Int) {
        let header = try Imaging.ImageDecoder().header(of: bytes)
        return (header.width, header.height)
    }
}
