import Server
import Testing

/// The escaping every page relies on, against outputs written out by hand
/// (the page tests use `HTML.escape` itself to find names in pages).
@Suite struct HTMLEscapingTests {
    @Test(arguments: [
        ("<script>alert(\"x\")</script>", "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"),
        ("Tom & Jerry's <b>", "Tom &amp; Jerry&#39;s &lt;b&gt;"),
        ("Jäckchen <1> 👕&", "Jäckchen &lt;1&gt; 👕&amp;"),
        ("T-shirt/top", "T-shirt/top"),
        ("", ""),
    ])
    func htmlEscapesTheFiveCharactersAndKeepsEverythingElse(input: String, expected: String) {
        #expect(HTML.escape(input) == expected)
        let page: HTML = "<p title=\"\(text: input)\">\(text: input)</p>"
        #expect(page.text == "<p title=\"\(expected)\">\(expected)</p>")
    }

    /// Markup and text are two types: a literal written in an interpolation is markup (a
    /// `String` it was, escaped, so `class="primary"` reached the page as
    /// `class=&quot;primary&quot;`), and a `String` enters only as `text:`, escaped. That a
    /// bare `String` or an `HTML` given as text does not compile is the rest of the rule.
    @Test(arguments: [true, false])
    func literalsInInterpolationsAreMarkupAndStringsAreText(primary: Bool) {
        let label = "<Coat & \"Parka\">"
        let page: HTML = "<button\(primary ? " class=\"primary\"" : "")>\(text: label)</button>"
        #expect(page.text == (primary ? "<button class=\"primary\">" : "<button>") + "&lt;Coat &amp; &quot;Parka&quot;&gt;</button>")
    }

    @Test(arguments: [
        ("T-shirt/top", "T-shirt%2Ftop"),
        ("Ankle boot", "Ankle%20boot"),
        ("a&b=c?d#e", "a%26b%3Dc%3Fd%23e"),
        ("Jäcke 👕", "J%C3%A4cke%20%F0%9F%91%95"),
        ("0_123.~-", "0_123.~-"),
    ])
    func linksPercentEncodeAllButUnreservedBytes(input: String, expected: String) {
        #expect(Link.encode(input) == expected)
        #expect(Link("/", [("label", input)]).url == "/?label=" + expected)
    }
}
