import Catalogue
import Foundation
import Testing
@testable import Wardrobe
import Server

/// The gallery's colour filter and swatches: `/?colour=` chooses what `list --colour` chooses
/// (a person's colour outranking the measured one), carries into links and review, refuses a
/// name outside the palette; every card and the image page show the colour's swatch.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerColourTests {
    let served = ServedCatalogue.shared

    /// The ids `wardrobe list` gives for `filter`, newest first (the gallery's order).
    static func listed(_ filter: ImageFilter, in catalogue: Catalogue) throws -> [Int64] {
        var ids: [Int64] = []
        try ImageListing(catalogue: catalogue).forEach(.init(filter: filter, order: .id)) { ids.append($0.id) }
        return ids.sorted(by: >)
    }

    /// Each card's swatch class, by image id.
    static func swatches(_ html: String) -> [Int64: String] {
        var found: [Int64: String] = [:]
        for card in html.components(separatedBy: "<li class=\"card\" data-id=\"").dropFirst() {
            guard let id = Int64(card.prefix { $0.isNumber }), let start = card.range(of: "class=\"swatch swatch-") else { continue }
            found[id] = String(card[start.upperBound...].prefix { $0 != "\"" })
        }
        return found
    }

    @Test func theColourFilterChoosesWhatListChooses() throws {
        let client = served.client
        let catalogue = try served.catalogue()
        let all = try client.get("/?per=200").text
        let shown = Self.swatches(all)
        #expect(shown.count == ServerPageTests.cardIDs(all).count, "every card has a swatch: \(shown)")
        // Each colour the photos have: the gallery of that colour is list --colour's.
        let colours = Set(shown.values)
        #expect(colours.count >= 2, "the photos should have several colours: \(colours)")
        for colour in colours {
            let expected = try Self.listed(ImageFilter(colours: [colour]), in: catalogue)
            let page = try client.get("/?per=200&colour=\(colour)").text
            #expect(ServerPageTests.cardIDs(page) == expected, "\(colour)")
            #expect(Set(Self.swatches(page).values) == [colour], "\(colour)")
            #expect(page.contains("aria-current=\"true\"><span class=\"swatch swatch-\(colour)\""), "the chip in force")
            #expect(page.contains("href=\"/review?colour=\(colour)\">Review these</a>"), "review carries it")
        }
        // Several at once, as list --colour navy,blue.
        let two = Array(colours.sorted().prefix(2))
        let both = try client.get("/?per=200&colour=" + Link.encode(two.joined(separator: ","))).text
        #expect(ServerPageTests.cardIDs(both) == (try Self.listed(ImageFilter(colours: two), in: catalogue)))
        #expect(try client.get("/?colour=bleu").status == 400)
        // The image page: the swatch, the colour linked to its gallery, the measured shares.
        let (id, colour) = try #require(shown.first)
        let image = try client.get("/image/\(id)").text
        #expect(image.contains("<p class=\"colour\"><span class=\"swatch swatch-\(colour)\""), "\(image)")
        #expect(image.contains("href=\"/?colour=\(colour)\""))
    }

    /// On a copy: a person's colour moves the image to that colour's gallery, its card and
    /// page say a person set it, and the measured one is still shown beside it.
    @Test func aPersonsColourOutranksTheMeasuredOneOnThePages() throws {
        let copy = try served.servedCopy()
        defer { copy.server.stop() }
        let client = RawHTTP(port: copy.server.port)
        let catalogue = try Catalogue(path: copy.path)
        let item = try #require(try catalogue.galleryPage(GalleryQuery(limit: 1)).first)
        let measured = try #require(item.colours?.main)
        let given = measured == "purple" ? "orange" : "purple"
        try catalogue.setColour([item.image], given, command: "colour")
        let gallery = try client.get("/?per=200&colour=\(given)").text
        #expect(ServerPageTests.cardIDs(gallery).contains(item.image.rawValue))
        #expect(gallery.contains("title=\"\(given) (set by a person)\""))
        #expect(!ServerPageTests.cardIDs(try client.get("/?per=200&colour=\(measured)").text).contains(item.image.rawValue))
        let page = try client.get("/image/\(item.image)").text
        #expect(page.contains("swatch-\(given)") && page.contains("(set by a person)") && page.contains("measured: \(measured)"),
                "\(page)")
    }

    /// The image page sets a colour as `wardrobe colour` does (a person's act, recorded with
    /// `serve`), offers to take it back, and refuses what `/label` refuses: no token, a
    /// colour outside the palette, an image that is not there, a read-only server.
    @Test func theImagePageSetsAndClearsAColour() throws {
        let copy = try served.servedCopy()
        defer { copy.server.stop() }
        let client = RawHTTP(port: copy.server.port)
        let catalogue = try Catalogue(path: copy.path)
        let item = try #require(try catalogue.galleryPage(GalleryQuery(limit: 1)).first)
        let measured = try #require(item.colours?.main)
        let given = measured == "purple" ? "orange" : "purple"
        let page = try client.get("/image/\(item.image)").text
        #expect(page.contains("action=\"/colour\"") && page.contains("<option value=\"\(measured)\" selected>"), "\(page)")
        #expect(!page.contains("Clear my colour"))
        func post(_ fields: [(String, String)], token: String? = nil) throws -> RawHTTP.Response {
            try client.post("/colour", form: [("token", token ?? copy.site.guardian.token), ("id", "\(item.image)")] + fields,
                            origin: client.ownOrigin)
        }
        let set = try post([("action", "set"), ("colour", given), ("back", "/image/\(item.image)")])
        #expect(set.status == 303 && set.header("location") == "/image/\(item.image)")
        let acts = try catalogue.colourCorrections(of: item.image)
        #expect(acts.map(\.colour) == [given] && acts.map(\.command) == ["serve"])
        let after = try client.get("/image/\(item.image)").text
        #expect(after.contains("swatch-\(given)") && after.contains("(set by a person)") && after.contains("Clear my colour"))
        // Refused, and nothing written.
        #expect(try post([("action", "set"), ("colour", "bleu")]).status == 400)
        #expect(try post([("action", "set"), ("colour", given)], token: "wrong").status == 403)
        #expect(try client.post("/colour", form: [("token", copy.site.guardian.token), ("id", "999999"), ("action", "clear")],
                                origin: client.ownOrigin).status == 404)
        #expect(try catalogue.colourCorrections(of: item.image).count == 1)
        // Taken back: the measured colour again, both acts kept.
        #expect(try post([("action", "clear")]).status == 303)
        #expect(try catalogue.image(item.image)?.personColour == nil)
        #expect(try catalogue.colourCorrections(of: item.image).map(\.kind) == [.colour, .clear])
        let site = try WardrobeSite.over(copy.path, readOnly: true)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: site)
        defer { server.stop() }
        let reader = RawHTTP(port: server.port)
        #expect(!(try reader.get("/image/\(item.image)").text.contains("action=\"/colour\"")))
        #expect(try reader.post("/colour", form: [("token", site.guardian.token), ("id", "\(item.image)"), ("action", "clear")],
                                origin: reader.ownOrigin).status == 403)
    }
}
