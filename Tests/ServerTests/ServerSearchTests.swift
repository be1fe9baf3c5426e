import Catalogue
import Foundation
import Testing
@testable import Wardrobe
import Server

/// The gallery as a place to find things: the search box and the folder, with
/// the other filters, choose what `wardrobe list` chooses with the same
/// filters; they stay in the URL, carry into review, and a parameter a page
/// does not take is a 400, never passed over.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerSearchTests {
    let served = ServedCatalogue.shared
    var folder: String { served.root.appendingPathComponent("photos").path }

    /// The ids `wardrobe list` gives for `filter`, newest first (the gallery's order).
    func listed(_ filter: ImageFilter) throws -> [Int64] {
        var ids: [Int64] = []
        try ImageListing(catalogue: try served.catalogue()).forEach(.init(filter: filter, order: .id)) { ids.append($0.id) }
        return ids.sorted(by: >)
    }

    @Test func searchAndFolderChooseWhatListChooses() throws {
        let client = served.client
        // "shirt" is in the folders shirt and t-shirt; the folder shirt is only its own three.
        let searched = try listed(ImageFilter(path: "shirt"))
        #expect(searched.count == 6, "three photos each from shirt/ and t-shirt/")
        #expect(ServerPageTests.cardIDs(try client.get("/?q=shirt&per=200").text) == searched)
        let inFolder = try listed(ImageFilter(folder: folder + "/shirt"))
        #expect(inFolder.count == 3 && Set(inFolder).isSubset(of: Set(searched)))
        let page = try client.get("/?folder=" + Link.encode(folder + "/shirt") + "&per=200").text
        #expect(ServerPageTests.cardIDs(page) == inFolder)
        // Combined with a label and a confidence range, as list combines them.
        let label = try #require(try served.catalogue().galleryPage(GalleryQuery(limit: 1000)).first { item in
            inFolder.contains(item.image.rawValue) }).effectiveLabel
        let name = LabelMatcher.name(of: label)
        let both = try listed(ImageFilter(label: label, folder: folder + "/shirt", minConfidence: 0.1))
        #expect(!both.isEmpty)
        let combined = "/?folder=" + Link.encode(folder + "/shirt") + "&label=" + Link.encode(name) + "&min=10"
        #expect(ServerPageTests.cardIDs(try client.get(combined).text) == both)
        // The filters show in the page: the search box holds the text, the folder is a chip that
        // removes it, and "Review these" carries all of them.
        let searchedPage = try client.get("/?q=shirt&label=" + Link.encode(name)).text
        #expect(searchedPage.contains("name=\"q\" value=\"shirt\""))
        #expect(searchedPage.contains("<input type=\"hidden\" name=\"label\" value=\"\(HTML.escape(name))\">"))
        #expect(searchedPage.contains("href=\"/review?q=shirt&amp;label=\(HTML.escape(Link.encode(name)))\">Review these</a>"))
        #expect(page.contains("In \(folder)/shirt ×"))
        // The image page links each path's folder to the gallery of that folder.
        let image = try client.get("/image/\(inFolder[0])").text
        #expect(image.contains("href=\"/?folder=\(HTML.escape(Link.encode(folder + "/shirt")))\""))
        // A folder is a whole name: a prefix of one chooses nothing, and a relative one is refused.
        #expect(ServerPageTests.cardIDs(try client.get("/?folder=" + Link.encode(folder + "/shir")).text).isEmpty)
        #expect(try client.get("/?folder=photos/shirt").status == 400)
    }

    @Test func reviewTakesTheGallerysFiltersAndKeepsThem() throws {
        let client = served.client
        let shirts = Set(try listed(ImageFilter(corrected: false, folder: folder + "/shirt")))
        let query = "folder=" + Link.encode(folder + "/shirt")
        let single = try client.get("/review?" + query).text
        let shown = try #require(single.components(separatedBy: "<a href=\"/image/").dropFirst().first.flatMap { Int64($0.prefix { $0.isNumber }) })
        #expect(shirts.contains(shown), "review showed image \(shown), not one of the folder's")
        // Its moves and its forms' way back keep the folder.
        let escaped = HTML.escape(Link.encode(folder + "/shirt"))
        #expect(single.contains("rel=\"next\"") && single.contains("&amp;folder=\(escaped)\" data-key=\"right\""))
        let backs = single.components(separatedBy: "name=\"back\" value=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(!backs.isEmpty && backs.allSatisfy { $0.hasPrefix("/review?from=") && $0.hasSuffix("&amp;folder=\(escaped)") })
        #expect(single.contains("Only these: in \(folder)/shirt."))
        let grid = ServerPageTests.cardIDs(try client.get("/review?view=grid&" + query).text)
        #expect(Set(grid) == shirts)
        // `/review?label=Shirt` reviews the unlabelled images the catalogue calls shirts, least sure first.
        let label = LabelMatcher.name(of: 6)
        let labelled = try served.catalogue().galleryPage(GalleryQuery(label: 6, corrected: false, order: .uncertain, limit: 200))
        let reviewGrid = ServerPageTests.cardIDs(try client.get("/review?view=grid&per=200&label=" + Link.encode(label)).text)
        #expect(reviewGrid == labelled.map(\.image.rawValue))
    }

    /// The capture-date filters are list's `--taken-after` and `--taken-before`: none of these
    /// photos says when it was taken, so a range chooses none of them, and review keeps it.
    @Test func captureDatesFilterAndCarryIntoReview() throws {
        let client = served.client
        let page = try client.get("/?taken-after=2024-05-01&taken-before=2024-06-01")
        #expect(page.status == 200 && ServerPageTests.cardIDs(page.text).isEmpty)
        #expect(page.text.contains("name=\"taken-after\" value=\"2024-05-01\""))
        #expect(page.text.contains("href=\"/review?taken-after=2024-05-01&amp;taken-before=2024-06-01\">Review these</a>"))
        let review = try client.get("/review?view=grid&taken-after=2024-05-01").text
        #expect(ServerPageTests.cardIDs(review).isEmpty && review.contains("Only these: taken from 2024-05-01."))
        #expect(try client.get("/?taken-after=someday").status == 400)
        #expect(try client.get("/?taken-after=2024-06-01&taken-before=2024-05-01").status == 400)
    }

    @Test(arguments: ["/?path=blazer", "/?q=shirt&bogus=1", "/review?label=Shirt&sort=newest", "/review?corrected=yes",
                      "/image/1?w=480", "/stats?x=1", "/thumb/" + String(repeating: "0", count: 64) + "?v=1",
                      "/static/style.css?v=2"])
    func unknownParametersAreABadRequestNamingThem(path: String) throws {
        let response = try served.client.get(path)
        #expect(response.status == 400, "\(path): \(response.status)")
        let name = path.contains("corrected") ? "corrected" : String(path.split(separator: "?")[1].split(separator: "&").last!.split(separator: "=")[0])
        #expect(response.text.contains(name), "\(path): the page does not name \(name)")
    }
}
