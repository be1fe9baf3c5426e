import Foundation
import Testing
import Server
import Wardrobe

/// A list parameter (`colour=navy,blue`) is a set of names it can name: an empty entry, a
/// name twice (as read: `Gray` is `grey`) or more names than the palette holds is a 400, on
/// the gallery and in review. `colour=red,red,…` was taken at any length, and each length
/// made a statement of its own that the server compiled and kept (RSS 41 MB to 149 MB over
/// 400 requests); `colour=,` chose no image under the title "All images".
@Suite(.enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerFilterListTests {
    let client = ServedCatalogue.shared.client

    @Test(arguments: ["red,red", "red,navy,red", "Gray,grey", ",", ",,,", "red,", ",red", "red,,navy"])
    func aColourListWithAnEntryEmptyOrTwiceGets400(list: String) throws {
        for page in ["/", "/review", "/review?view=grid"] {
            let target = page + (page.contains("?") ? "&" : "?") + "colour=" + Link.encode(list)
            let response = try client.get(target)
            #expect(response.status == 400, "\(target): \(response.status)")
            #expect(response.text.contains("Bad request: colour "), "\(target): \(response.text)")
        }
    }

    @Test func aColourListIsNoLongerThanThePalette() throws {
        let palette = ColourSetter.names
        let every = try client.get("/?colour=" + Link.encode(palette.joined(separator: ",")))
        #expect(every.status == 200, "each colour once is a list it can name")
        // Longer than the palette: refused before a name is read, whatever the names.
        let longer = Array(repeating: "red", count: palette.count + 1).joined(separator: ",")
        let response = try client.get("/?colour=" + longer)
        #expect(response.status == 400)
        #expect(response.text.contains("colour lists at most \(palette.count) names, each once"), "\(response.text)")
        #expect(try client.get("/?colour=" + Array(repeating: "red", count: 2000).joined(separator: ",")).status == 400)
    }

    /// A gallery chosen by colours, a search or a folder said "All images" over its few, and each
    /// label chip gave the whole catalogue's count ("Coat (30)") beside a search its click would
    /// narrow; under such a filter the heading is "Images", the chips carry no count, and every
    /// colour of a list (`navy,blue`) is marked as chosen.
    @Test func aGalleryChosenByOtherFiltersSaysSoAndCountsNothingItWouldNotShow() throws {
        let whole = try client.get("/").text
        #expect(whole.contains("<h1>All images</h1>") && whole.contains("aria-current=\"true\">All ("), "unfiltered, the counts")
        for query in ["colour=navy%2Cblue", "q=outwear", "corrected=no", "min=80"] {
            let html = try client.get("/?" + query).text
            #expect(html.contains("<h1>Images</h1>") && !html.contains("All images"), "\(query)")
            #expect(html.contains("aria-current=\"true\">All</a>") && !html.contains(">Coat ("), "\(query): no counts")
        }
        let coats = try client.get("/?label=Coat&q=outwear").text
        #expect(coats.contains("<h1>Coat</h1>") && coats.contains("aria-current=\"true\">Coat</a>"))
        let chosen = try client.get("/?colour=navy%2Cblue").text
            .components(separatedBy: "aria-label=\"Colours\"")[1].components(separatedBy: "</nav>")[0]
        for name in ["navy", "blue"] {
            #expect(chosen.contains("aria-current=\"true\"><span class=\"swatch swatch-\(name)\""), "\(name) marked")
        }
        #expect(chosen.components(separatedBy: "aria-current").count - 1 == 2, "\(chosen)")
    }

    @Test func anEmptyColourIsNoColourFilter() throws {
        let response = try client.get("/?colour=")
        #expect(response.status == 200)
        #expect(response.text.contains("aria-current=\"true\">Any colour</a>"), "the chip in force")
    }
}
