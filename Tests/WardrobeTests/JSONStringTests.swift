import Foundation
import Testing
import Wardrobe

/// The one JSON string escaper: exports keep text as it is but for what JSON must escape
/// and what a terminal would act on or reorder by (DEL, the C1 controls, line separators,
/// direction controls: written raw, `list --json` showed a name with U+202E reversed); the
/// server's replies also escape what markup or a script would read.
@Suite struct JSONStringTests {
    static let text = "a \"coat\"\\\n\t\u{1}<b>&'\u{7F}\u{2028}é\u{202E}\u{9B}\u{E0001}👩\u{200D}💻"

    @Test func exportsEscapeWhatJSONMustAndWhatATerminalActsOn() throws {
        let quoted = JSONString.quoted(Self.text)
        #expect(quoted == "\"a \\\"coat\\\"\\\\\\n\\t\\u0001<b>&'\\u007f\\u2028é\\u202e\\u009b\\udb40\\udc01👩\u{200D}💻\"")
        #expect(try JSONDecoder().decode(String.self, from: Data(quoted.utf8)) == Self.text)
    }

    @Test func repliesAreInertInMarkup() throws {
        let quoted = JSONString.quoted(Self.text, inertInMarkup: true)
        #expect(quoted == "\"a \\\"coat\\\"\\\\\\n\\t\\u0001\\u003cb\\u003e\\u0026\\u0027\\u007f\\u2028é\\u202e\\u009b\\udb40\\udc01👩\u{200D}💻\"")
        #expect(try JSONDecoder().decode(String.self, from: Data(quoted.utf8)) == Self.text)
    }
}
