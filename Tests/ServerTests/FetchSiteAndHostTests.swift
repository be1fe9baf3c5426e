import Catalogue
import Foundation
import Server
import Testing

/// What another site's page can make a browser ask, and requests no browser sends: a page
/// anywhere could load `/thumb/HASH` as an image (browsers send the real Host), so count the
/// images, learn whether a photo is catalogued and read its thumbnail's size; and a Host
/// with an `@`, two Hosts or a NUL in the path were read leniently.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct FetchSiteAndHostTests {
    let served = ServedCatalogue.shared

    func anyThumbnail() throws -> String {
        let page = try served.client.get("/")
        let start = try #require(page.text.range(of: "/thumb/"))
        return String(page.text[start.lowerBound...].prefix(7 + 64))
    }

    static func fetch(site: String, mode: String, destination: String) -> [String: String] {
        ["Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode, "Sec-Fetch-Dest": destination]
    }

    /// A page on another site, or on another port of 127.0.0.1 (same-site), loading a
    /// subresource or fetching a page.
    @Test(arguments: [("cross-site", "no-cors", "image"), ("same-site", "no-cors", "image"),
                      ("cross-site", "cors", "empty"), ("cross-site", "no-cors", "script"),
                      ("cross-site", "navigate", "iframe"), ("same-site", "no-cors", "style")])
    func anotherSitesRequestsAreRefused(site: String, mode: String, destination: String) throws {
        let headers = Self.fetch(site: site, mode: mode, destination: destination)
        for target in [try anyThumbnail(), "/tensor/1.png", "/static/style.css", "/", "/image/1", "/stats"] {
            let response = try served.client.get(target, headers: headers)
            #expect(response.status == 403, "\(target) for \(site) \(mode) \(destination): \(response.status)")
            #expect(!response.body.starts(with: [0xFF, 0xD8]) && !response.text.contains("<li class=\"card\""))
        }
    }

    /// This server's own pages, a link followed from anywhere, and browsers that send no
    /// Sec-Fetch-Site are answered.
    @Test(arguments: [["Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"],
                      ["Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"],
                      [:]])
    func ownAndDirectRequestsAreAnswered(headers: [String: String]) throws {
        let thumbnail = try served.client.get(try anyThumbnail(), headers: headers)
        #expect(thumbnail.status == 200)
        #expect(thumbnail.header("cross-origin-resource-policy") == "same-origin")
    }

    @Test func aLinkFromAnotherSiteOpensThePage() throws {
        let response = try served.client.get("/", headers: Self.fetch(site: "cross-site", mode: "navigate", destination: "document"))
        #expect(response.status == 200)
    }

    @Test func everyResponseSaysOnlyThisSiteMayLoadIt() throws {
        for target in [try anyThumbnail(), "/tensor/1.png", "/static/keys.js", "/", "/nowhere"] {
            #expect(try served.client.get(target).header("cross-origin-resource-policy") == "same-origin", "\(target)")
        }
    }

    @Test(arguments: ["127.0.0.1:PORT@evil.example", "127.0.0.1:PORT evil.example", "127.0.0.1:", "127.0.0.1:PORTx",
                      "127.0.0.1:123456", "[::1", "[::1]x", "127.0.0.1/evil", "@127.0.0.1", "127.0.0.1:PORT:80"])
    func aHostThatIsNotAHostAndPortGets400(host: String) throws {
        let response = try served.client.get("/", host: host.replacingOccurrences(of: "PORT", with: "\(served.server.port)"))
        #expect(response.status == 400, "\(host): \(response.status)")
        #expect(!response.text.contains("<li class=\"card\""))
    }

    @Test(arguments: ["Host", "host", "Origin", "Sec-Fetch-Site"])
    func aHeaderThatMeansOneThingGivenTwiceGets400(name: String) throws {
        let port = served.server.port
        let value = name.lowercased() == "host" ? "127.0.0.1:\(port)" : name == "Origin" ? "http://127.0.0.1:\(port)" : "same-origin"
        let host = name.lowercased() == "host" ? "" : "Host: 127.0.0.1:\(port)\r\n"
        let request = "GET / HTTP/1.1\r\n" + host + "\(name): \(value)\r\n\(name): \(value)\r\nConnection: close\r\n\r\n"
        let response = try served.client.exchange(Array(request.utf8))
        #expect(response.status == 400, "\(name) twice: \(response.status)")
    }

    @Test(arguments: ["/\u{0}", "/\u{0}/image/1", "/image/1\u{0}", "/thumb/\u{0}x", "/stats\u{0}?x=1", "/?sort=\u{0}x",
                      "/\u{0}HTTP/1.1"])
    func aNulInThePathGets400(path: String) throws {
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(served.server.port)\r\nConnection: close\r\n\r\n"
        let response = try served.client.exchange(Array(request.utf8))
        #expect(response.status == 400, "\(path.debugDescription): \(response.status)")
    }

    /// Where the library ends a target is where it is compared, also after a long header, a
    /// query and a second request on the same connection.
    @Test func pathsWithoutANulAreServedAsBefore() throws {
        let port = served.server.port
        let long = String(repeating: "x", count: 20_000)
        for target in ["/", "/stats", "/?sort=newest", "/image/1"] {
            let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Long: \(long)\r\nConnection: close\r\n\r\n"
            #expect(try served.client.exchange(Array(request.utf8)).status == 200, "\(target)")
        }
        let twice = "GET /stats HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\nGET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        let answers = String(decoding: try served.client.exchangeRaw(Array(twice.utf8)), as: UTF8.self)
        #expect(answers.components(separatedBy: "HTTP/1.1 200").count == 3, "\(answers.prefix(200))")
    }
}
