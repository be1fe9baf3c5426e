import Catalogue
import Foundation
import Imaging
import Testing
import Server
@testable import Wardrobe

/// The checks of `wardrobe serve` over HTTP, on a catalogue of real photos.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerSecurityTests {
    let served = ServedCatalogue.shared

    @Test(arguments: ["evil.example", "evil.example:8421", "127.0.0.1.evil.example", "localhost.evil.example", "10.0.0.1"])
    func wrongHostGets421(host: String) throws {
        let response = try served.client.get("/", host: host)
        #expect(response.status == 421)
        #expect(!response.text.contains("<li class=\"card\""))
    }

    @Test(arguments: ["127.0.0.1", "localhost", "LOCALHOST:9000"])
    func ownHostIsServed(host: String) throws {
        #expect(try served.client.get("/", host: host).status == 200)
    }

    @Test func postWithoutTokenOrWithForeignOriginGets403AndChangesNoRow() throws {
        let client = served.client
        let id = try #require(try served.catalogue().currentClassifications().first?.image)
        let before = try served.correctionCount()
        let token = served.site.guardian.token
        let form: [(String, String)] = [("id", "\(id)"), ("action", "label"), ("label", "Bag")]
        let attempts: [(form: [(String, String)], origin: String?)] = [
            (form, client.ownOrigin),                                    // no token
            (form + [("token", String(repeating: "0", count: 64))], client.ownOrigin),  // wrong token
            (form + [("token", token)], "http://evil.example"),          // foreign Origin
            (form + [("token", token)], "http://127.0.0.1:1"),           // another port is another origin
            (form + [("token", token)], nil),                            // no Origin
        ]
        for attempt in attempts {
            let response = try client.post("/label", form: attempt.form, origin: attempt.origin)
            #expect(response.status == 403, "\(attempt.origin ?? "no origin")")
        }
        #expect(try client.get("/label?id=\(id)&action=label&label=Bag&token=\(token)").status == 403)
        #expect(try served.correctionCount() == before)
    }

    @Test func oversizedBodyGets413AndChangesNoRow() throws {
        let before = try served.correctionCount()
        let response = try served.client.post("/label", form: [("token", served.site.guardian.token),
                                                               ("pad", String(repeating: "x", count: 40_000))],
                                              origin: served.client.ownOrigin)
        #expect(response.status == 413)
        #expect(try served.correctionCount() == before)
    }

    /// A body declared larger than accepted is refused before it is sent: a client that waits
    /// for `100 Continue` gets 413 at once (it got 100, then uploaded until the deadline).
    @Test func aBodyDeclaredTooLargeIsRefusedBeforeItIsSent() throws {
        let client = RawHTTP(port: served.server.port, timeout: 5)
        let head = "POST /label HTTP/1.1\r\nHost: 127.0.0.1:\(served.server.port)\r\nOrigin: \(client.ownOrigin)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n"
        let asked = Date()
        let response = try client.exchange(Array(head.utf8))
        #expect(response.status == 413)
        #expect(Date().timeIntervalSince(asked) < 3)
        #expect(response.header("x-frame-options") == "DENY", "the site's headers, as on every answer")
    }

    /// A body whose fields are not exactly what was sent (a field twice, which
    /// used to join `id=1&id=2` into image 12, also when the second is a last field
    /// without a value, which was dropped: `label=Bag&label`, `label=Bag&label=`; a value
    /// that is not UTF-8; a body the parser gives up on) is a 400, not a 413, and changes
    /// no row.
    @Test func aFormThatCannotBeReadExactlyGets400AndChangesNoRow() throws {
        let ids = try served.catalogue().currentClassifications().map(\.image.rawValue).sorted()
        try #require(ids.count >= 12 && ids.contains(12), "the served catalogue needs an image 12")
        let before = try served.correctionCount()
        let token = served.site.guardian.token
        let bodies = [
            "token=\(token)&id=1&id=2&action=label&label=Bag&back=/",
            "token=\(token)&token=\(token)&id=1&action=label&label=Bag&back=/",
            "token=\(token)&id=1&action=label&label=Bag%FF&back=/",
            "token=\(token)&id=1&action=label&label=Bag&back=/%0d%0aSet-Cookie:x=1",
            "token=\(token)&id=1&action=label&label=Bag&label",
            "token=\(token)&id=1&action=label&label=Bag&label=",
            "token=\(token)&id=1&action=label&label=Bag&id",
        ]
        for body in bodies {
            let response = try served.client.send("POST", "/label", host: nil,
                                                  headers: ["Content-Type": "application/x-www-form-urlencoded",
                                                            "Origin": served.client.ownOrigin],
                                                  body: Array(body.utf8))
            #expect(response.status == 400, "\(body) answered \(response.status)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("<p class=\"notice\">Bad request: "))
        }
        #expect(try served.correctionCount() == before)
    }

    /// A field whose name or value holds a NUL, or a control character, is a 400 and changes no
    /// row. The library hands a name over as a C string, so `id%00x=1` (or a NUL byte as it is,
    /// urlencoded or in a multipart part's name) was read as `id=1` and labelled image 1; a
    /// label was read past what it held (`Bag%00`, `B%01ag` as `Bag`); and a field whose name
    /// held a control character was passed over.
    @Test func aFieldHoldingANulOrAControlCharacterGets400AndChangesNoRow() throws {
        let before = try served.correctionCount()
        let token = served.site.guardian.token
        let urlencoded = "application/x-www-form-urlencoded"
        let forms: [(type: String, body: String)] = [
            (urlencoded, "token=\(token)&id%00x=1&action=label&label=Bag&back=/"),
            (urlencoded, "token=\(token)&id\u{0}x=1&action=label&label=Bag&back=/"),
            (urlencoded, "token=\(token)&id=1&action%00=label&action=label&label=Bag&back=/"),
            (urlencoded, "token=\(token)&id=1&action=label&label=Bag%00&back=/"),
            (urlencoded, "token=\(token)&id=1&action=label&label=Bag\u{0}&back=/"),
            (urlencoded, "token=\(token)&id=1&action=label&label=B%01ag&back=/"),
            (urlencoded, "token=\(token)&id=1&action=label&label=Bag%1B&back=/"),
            (urlencoded, "token=\(token)&id=1&action=label&label=Bag%C2%85&back=/"),
            (urlencoded, "token=\(token)&id=1&action=label&label=Bag&back=/&x%01=1"),
            (urlencoded, "token=\(token)&id=1%09&action=label&label=Bag&back=/"),
            ("multipart/form-data; boundary=XyZ", [("token", token), ("id\u{0}x", "1"), ("action", "label"), ("label", "Bag")]
                .map { "--XyZ\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined() + "--XyZ--\r\n"),
        ]
        for form in forms {
            let response = try served.client.send("POST", "/label", host: nil,
                                                  headers: ["Content-Type": form.type, "Origin": served.client.ownOrigin],
                                                  body: Array(form.body.utf8))
            #expect(response.status == 400, "\(form.body.debugDescription) answered \(response.status)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("<p class=\"notice\">Bad request: "))
        }
        #expect(try served.correctionCount() == before)
    }

    /// A POST whose body is not a form (JSON, plain text, no Content-Type at all) cannot be
    /// read; it used to be read as an empty form and refused for a missing token ("reload the
    /// page"), which sent a script's author looking in the wrong place. It gets 415, saying
    /// what a POST must be, and changes no row.
    @Test(arguments: ["application/json", "text/plain", nil])
    func aPostThatIsNotAFormGets415AndChangesNoRow(type: String?) throws {
        let id = try #require(try served.catalogue().currentClassifications().first?.image)
        let before = try served.correctionCount()
        var headers = ["Origin": served.client.ownOrigin]
        if let type { headers["Content-Type"] = type }
        let body = "token=\(served.site.guardian.token)&id=\(id)&action=label&label=Bag&back=/"
        let response = try served.client.send("POST", "/label", host: nil, headers: headers, body: Array(body.utf8))
        #expect(response.status == 415, "\(type ?? "no type") answered \(response.status): \(response.text)")
        #expect(response.text.contains("application/x-www-form-urlencoded or multipart/form-data"), "\(response.text)")
        #expect(try served.correctionCount() == before)
    }

    /// Query arguments are read as form fields are: one of each, as UTF-8. The first of a
    /// repeated one used to win silently, and a byte that is not UTF-8 became U+FFFD.
    @Test(arguments: ["/?label=Coat&label=Bag", "/?per=10&per=200", "/review?at=1&at=2", "/?label=Bag%FF",
                      "/?sort=uncertain&sort=uncertain"])
    func aQueryThatCannotBeReadExactlyGets400(path: String) throws {
        let response = try served.client.get(path)
        #expect(response.status == 400, "\(path) answered \(response.status)")
        #expect(response.text.contains("<p class=\"notice\">Bad request: "), "\(path): \(response.text)")
    }

    /// A value that means nothing gets 400 on every route that takes parameters, whatever
    /// its form: a NUL written `%00` (which ended the C string: `sort=%00` read as no sort,
    /// `sort=newest%00x` as `newest`), and the review page's parameters, whose bad values
    /// were passed over (`view`, `from`) or got 404 (`at`). `was` is no parameter of review's
    /// any more (an undo names an act the server keeps: `UndoLedger`).
    @Test(arguments: ["/?sort=%00", "/?sort=newest%00x", "/?label=Coat%00", "/?corrected=%00", "/?min=5%00",
                      "/?per=1%000", "/?after=%00", "/review?at=%00", "/review?at=1%00", "/review?at=abc",
                      "/review?from=garbage", "/review?from=%00", "/review?view=bogus", "/review?view=grid%00",
                      "/review?view=grid&per=%00", "/review?undo=1&was=bogus", "/review?undo=1&was=Coat%00"])
    func everyParameterWithAValueThatMeansNothingGets400(path: String) throws {
        let response = try served.client.get(path)
        #expect(response.status == 400, "\(path) answered \(response.status)")
        #expect(response.text.contains("<p class=\"notice\">Bad request: "), "\(path): \(response.text)")
    }

    /// A NUL in the path no longer cuts it short: `/image/1%00x` was image 1's page.
    @Test(arguments: ["/image/1%00x", "/image/1%00", "/stats%00", "/review%00", "/%00", "/tensor/1.png%00",
                      "/static/style.css%00.map"])
    func aPathWithANulIsNoRoute(path: String) throws {
        let response = try served.client.get(path)
        #expect(response.status == 404, "\(path) answered \(response.status)")
    }

    /// The review page of an image that is not there is not found, as the image's own page is,
    /// and says that the image is not there: it said "there is no page at /review" of a link
    /// to an image forgotten since the link was made.
    @Test func reviewAtAnImageThatIsNotThereGets404() throws {
        for page in ["/review?at=999999", "/image/999999", "/tensor/999999.png", "/original/999999"] {
            let response = try served.client.get(page)
            #expect(response.status == 404, "\(page)")
            #expect(response.text.contains("Not found: image 999999 is not in the catalogue."), "\(page): \(response.text)")
        }
        #expect(try served.client.get("/review?at=1").status == 200)
        #expect(try served.client.get("/review?view=grid&undo=1").status == 200)
        #expect(try served.client.get("/review?at=&from=&view=").status == 200, "an empty value is no value")
    }

    @Test(arguments: ["/..", "/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E%2Fetc%2Fpasswd",
                      "/static/../../Package.swift", "/static/..%2f..%2fPackage.swift", "/etc/passwd", "//etc/passwd",
                      "/thumb/../../etc/passwd", "/thumb/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/image/../../etc/passwd",
                      "/tensor/..%2f1.png", "/Package.swift", "/static/", "/static/style.css/..",
                      "/image/01", "/image/0001", "/image/+1", "/tensor/01.png"])
    func pathsOutsideTheRoutesGet404(path: String) throws {
        let response = try served.client.get(path)
        #expect(response.status == 404, "\(path) answered \(response.status)")
        #expect(!response.text.contains("root:"))
        #expect(!response.text.contains("PackageDescription"))
    }

    @Test func htmlInFileNamesShowsAsTextOnEveryPage() throws {
        let catalogue = try served.catalogue()
        let client = served.client
        for name in ServedCatalogue.hostileNames {
            let path = try #require(try catalogue.knownPaths().first { $0.path.hasSuffix("/" + name) })
            let current = try #require(try catalogue.currentClassification(of: path.image))
            let label = Link.encode(LabelMatcher.name(of: current.effectiveLabel))
            let pages = ["/?label=\(label)&per=200", "/image/\(path.image)", "/review?at=\(path.image)",
                         "/review?view=grid&per=200", "/?sort=uncertain&per=200"]
            let escaped = HTML.escape(name)
            for page in pages {
                let html = try client.get(page).text
                #expect(!html.contains("<script>alert"), "\(page)")
                #expect(!html.contains("<img src=x"), "\(page)")
                #expect(!html.contains("onerror=alert(1)>"), "\(page)")
                if !page.hasPrefix("/review?view") || html.contains(escaped) {
                    #expect(html.contains(escaped), "\(page) does not show \(name) as text")
                }
            }
        }
    }

    /// A right-to-left override (U+202E) drew `evil<U+202E>gpj.exe.jpg` in a page as
    /// `evilgpj.exe.jpg` read backwards, `evilgpj.exe` turned into "...exe.jpg"; a line
    /// break showed as a space and an escape not at all. Pages show such a name as the
    /// terminal does, escapes visible, and so does the label reply the script shows.
    @Test func controlCharactersAndDirectionOverridesInNamesShowEscapedOnEveryPage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = try #require(try served.catalogue().knownPaths().first { !$0.path.contains("<") }).path
        let names = ["evil\u{202E}gpj.exe.jpg", "two\nlines\u{1B}[31m.jpg"]
        for (index, name) in names.enumerated() {
            // Another content each, so each name is its own image.
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
            bytes.append(UInt8(index))
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let path = root.appendingPathComponent("catalogue.sqlite").path
        let catalogue = try Catalogue(path: path)
        let importer = Importer(catalogue: catalogue, classifier: try ClothingClassifier(
            modelAt: FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel"))
        let options = ImportOptions(paths: [folder.path], jobs: 1, recipe: PrepRecipes.default)
        _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
        let site = try WardrobeSite.over(path, readOnly: false)
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: site)
        defer { server.stop(grace: 0) }
        let client = RawHTTP(port: server.port)

        let shown = ["evil\\u{202E}gpj.exe.jpg", "two\\nlines\\e[31m.jpg"]
        for known in try catalogue.knownPaths() {
            for page in ["/", "/image/\(known.image)", "/review?at=\(known.image)"] {
                let html = try client.get(page).text
                #expect(!html.contains("\u{202E}") && !html.contains("\u{1B}") && !html.contains("two\nlines"), "\(page)")
                #expect(shown.contains { html.contains($0) }, "\(page) shows neither name escaped")
            }
            let reply = try client.post("/label", form: [("token", site.guardian.token), ("id", "\(known.image)"),
                                                         ("action", "confirm")],
                                        origin: client.ownOrigin, accept: "application/json")
            #expect(reply.status == 200 && shown.contains { reply.text.contains($0.replacingOccurrences(of: "\\", with: "\\\\")) },
                    "\(reply.text)")
        }
    }

    @Test func everyResponseForbidsFramingAndForeignScripts() throws {
        let response = try served.client.get("/stats")
        #expect(response.header("content-security-policy")?.contains("script-src 'self'") == true)
        #expect(response.header("x-frame-options") == "DENY")
    }

    @Test func escapingHelpersCoverEachContext() {
        let nasty = "<a href=\"x\">'&'</a>"
        #expect(HTML.escape(nasty) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        let page: HTML = "<p title=\"\(text: nasty)\">\(text: nasty)</p>"
        #expect(!page.text.contains("<a href"))
        #expect(Link("/", [("label", "T-shirt/top & \"x\"")]).url == "/?label=T-shirt%2Ftop%20%26%20%22x%22")
        #expect(WardrobeSite.localPath("//evil.example/") == nil)
        #expect(WardrobeSite.localPath("/\\evil.example") == nil)
        #expect(WardrobeSite.localPath("/review?x=1\r\nSet-Cookie: a") == nil)
        #expect(WardrobeSite.localPath("/review?at=3") == "/review?at=3")
        #expect(WardrobeSite.localPath("/caf\u{E9}") == nil)
        #expect(WardrobeSite.localPath("/a b") == nil)
    }
}
