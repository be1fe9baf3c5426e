import Foundation
import Testing
import Wardrobe

/// The one JSON string escaper: exports keep text as it is but for what JSON must
/// escape; the server's replies also escape what markup or a script would read.
@Suite struct JSONStringTests {
    static let text = "a \"coat\"\\\n\t\u{1}<b>&'\u{7F}\u{2028}é"

    @Test func exportsEscapeOnlyWhatJSONMust() throws {
        let quoted = JSONString.quoted(Self.text)
        #expect(quoted == "\"a \\\"coat\\\"\\\\\\n\\t\\u0001<b>&'\u{7F}\u{2028}é\"")
        #expect(try JSONDecoder().decode(String.self, from: Data(quoted.utf8)) == Self.text)
    }

    @Test func repliesAreInertInMarkup() throws {
        let quoted = JSONString.quoted(Self.text, inertInMarkup: true)
        #expect(quoted == "\"a \\\"coat\\\"\\\\\\n\\t\\u0001\\u003cb\\u003e\\u0026\\u0027\\u007f\\u2028é\"")
        #expect(try JSONDecoder().decode(String.self, from: Data(quoted.utf8)) == Self.text)
    }
}
