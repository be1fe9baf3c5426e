import Foundation
import Testing

/// A page that is not there (404) or a request that means nothing (400), opened in a
/// browser: the answer is a page in the frame of every page, its one line escaped, with the
/// way back to the gallery; it was a bare line of plain text. The page's script, which asks
/// for JSON and shows an error's text as it is, still gets the line as plain text.
@Suite struct RefusedPageServeTests {
    static let refusals: [(target: String, status: Int, line: String)] = [
        ("/image/999", 404, "Not found: image 999 is not in the catalogue."),
        ("/image/abc", 404, "Not found: there is no page at /image/abc."),
        ("/no/<b>such</b>&page", 404, "Not found: there is no page at /no/&lt;b&gt;such&lt;/b&gt;&amp;page."),
        ("/thumb/00", 404, "Not found: there is no page at /thumb/00."),
        ("/?per=0", 400, "Bad request: per is 1 to 200"),
        ("/review?view=bogus", 400, "Bad request: view is grid, or none for one image at a time"),
        ("/?min=90&max=10", 400, "Bad request: min is above max"),
        // Refused by the server before the site sees it: a parameter given twice.
        ("/?label=Coat&label=Bag", 400, "Bad request: "),
    ]

    @Test func aRefusedPageIsAPageInTheFrameWithItsLineEscaped() throws {
        let (folder, server) = try ServeProcess.onOneImage()
        defer { server.stop(); folder.remove() }
        let client = try KeepAliveHTTP(port: server.port)

        for (target, status, line) in Self.refusals {
            let (head, body) = try client.answer(target)
            #expect(head.hasPrefix("HTTP/1.1 \(status)"), "\(target): \(head)")
            #expect(head.contains("Content-Type: text/html; charset=utf-8"), "\(target): \(head)")
            #expect(body.contains("<nav><a href=\"/\">Gallery</a><a href=\"/review\">Review</a>"), "\(target): \(body)")
            let notice = try #require(body.split(separator: "\n").first { $0.hasPrefix("<p class=\"notice\">") },
                                      "\(target): \(body)")
            #expect(notice.hasPrefix("<p class=\"notice\">\(line)"), "\(target): \(notice)")
            #expect(notice.hasSuffix("</p>"), "one line: \(notice)")
            #expect(!body.contains("<b>"), "nothing of the request unescaped: \(body)")
        }

        // The script's requests (Accept: application/json) get the line as text, as before.
        let (head, body) = try client.answer("/image/999", accept: "application/json")
        #expect(head.hasPrefix("HTTP/1.1 404"), "\(head)")
        #expect(head.contains("Content-Type: text/plain; charset=utf-8"), "\(head)")
        #expect(body == "Not found: image 999 is not in the catalogue.\n", "\(body)")
        #expect(server.isRunning, "the server is still there")
    }
}
