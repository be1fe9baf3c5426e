import Catalogue
import Foundation
import Testing
@testable import Wardrobe
import Server

/// The image page's "similar" strip, read over HTTP from the served catalogue of real photos:
/// the images `similar` finds, in its order, each a card linked to its own page.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerSimilarTests {
    let served = ServedCatalogue.shared

    static func strip(_ html: String) -> String? {
        guard let start = html.range(of: "<section class=\"similar\""), let end = html[start.upperBound...].range(of: "</section>") else {
            return nil
        }
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test func theStripShowsWhatSimilarFindsInItsOrder() throws {
        let catalogue = try served.catalogue()
        let images = try catalogue.currentClassifications().map(\.image.rawValue)
        #expect(images.count > 9)
        let opened = try WardrobeSetup(environment: [:], executable: URL(fileURLWithPath: "/nonexistent"))
            .openCatalogue(explicit: served.cataloguePath, mode: .readOnly)
        for id in images.prefix(4) {
            let html = try served.client.get("/image/\(id)").text
            let strip = try #require(Self.strip(html), "image \(id) has no similar strip")
            let shown = ServerPageTests.cardIDs(strip)
            let expected = try opened.similar(to: .id(id), limit: 8).neighbours.map(\.image)
            #expect(shown == expected && shown.count == 8, "image \(id): \(shown) against \(expected)")
            #expect(!shown.contains(id))
            for other in shown { #expect(strip.contains("<a href=\"/image/\(other)\"")) }
        }
    }

    @Test func anImageWithoutFingerprintsHasNoStrip() throws {
        let copy = try served.servedCopy()
        defer { copy.server.stop() }
        let id = try #require(try served.catalogue().currentClassifications().first?.image.rawValue)
        try Catalogue(path: copy.path).database.execute("UPDATE images SET fingerprint = NULL WHERE id = :id", [":id": id])
        let html = try RawHTTP(port: copy.server.port).get("/image/\(id)").text
        #expect(html.contains("<h2>History</h2>") && Self.strip(html) == nil)
        // Nor is it in another image's strip.
        let other = try #require(try served.catalogue().currentClassifications().last?.image.rawValue)
        let strip = try #require(Self.strip(try RawHTTP(port: copy.server.port).get("/image/\(other)").text))
        #expect(!ServerPageTests.cardIDs(strip).contains(id))
    }
}
