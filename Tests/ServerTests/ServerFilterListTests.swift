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

    @Test func anEmptyColourIsNoColourFilter() throws {
        let response = try client.get("/?colour=")
        #expect(response.status == 200)
        #expect(response.text.contains("aria-current=\"true\">Any colour</a>"), "the chip in force")
    }
}
