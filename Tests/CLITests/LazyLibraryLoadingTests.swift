import Foundation
import Testing

/// libpq, libheif and libmicrohttpd (with the libraries each brings: Kerberos and OpenSSL,
/// the HEVC and AV1 codecs, GnuTLS) are loaded when a command first needs them: a catalogue
/// on a server, a HEIC or AVIF photo, `serve`. Linked, they were loaded at every start:
/// 3.5 ms, 1.7 ms and 1.1 ms of CPU on each command, of `list`'s 15 to 20. glibc's loader
/// says which libraries it opens (`LD_DEBUG=libs`), so the tests read that.
@Suite struct LazyLibraryLoadingTests {
    static let libraries = ["libpq.so.5", "libheif.so.1", "libmicrohttpd.so.12"]

    /// Which of `libraries` the command loaded, and its standard error.
    static func loaded(_ arguments: [String]) throws -> (libraries: Set<String>, stderr: String) {
        let result = try WardrobeProcess.run(arguments, environment: ["LD_DEBUG": "libs"])
        return (Set(libraries.filter { result.stderr.contains("find library=\($0) ") }), result.stderr)
    }

    @Test func aCommandOnACatalogueFileLoadsNoneOfThem() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (db, _) = try folder.catalogueOfTheSample()
        for arguments in [["stats", "--db", db], ["list", "--db", db, "--json"], ["--version"]] {
            let (libraries, stderr) = try Self.loaded(arguments)
            #expect(libraries.isEmpty, "\(arguments): \(stderr.split(separator: "\n").filter { $0.contains("find library=") }.prefix(3))")
        }
    }

    @Test func aCatalogueOnAServerLoadsLibpqAndSaysWhyItCannotConnect() throws {
        // Port 1 on this machine: nothing listens, so libpq is loaded and the connection refused.
        let (libraries, stderr) = try Self.loaded(["stats", "--db", "postgresql://someone:sekrit@127.0.0.1:1/wardrobe"])
        #expect(libraries == ["libpq.so.5"])
        let errors = stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].hasPrefix("error: postgresql://someone@127.0.0.1:1/wardrobe: "), "\(errors)")
        #expect(!stderr.contains("sekrit"))
    }

    @Test func aHEICPhotoLoadsLibheifAndIsImported() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let photo = FileManager.default.currentDirectoryPath + "/Fixtures/formats/orientation/heic-6.heic"
        try folder.write([UInt8](try Data(contentsOf: URL(fileURLWithPath: photo))), to: "photos/turned.heic")
        let (libraries, _) = try Self.loaded(["import", "--db", folder.path("c.sqlite"), folder.path("photos")])
        #expect(libraries == ["libheif.so.1"])
        let listed = try WardrobeProcess.run(["list", "--db", folder.path("c.sqlite"), "--json"])
        #expect(listed.stdout.contains("turned.heic"))
    }

    @Test func serveLoadsLibmicrohttpdAndSaysWhyItCannotListen() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (db, _) = try folder.catalogueOfTheSample()
        // 192.0.2.1 is a documentation address no interface here has: the bind fails once
        // libmicrohttpd is loaded, and serve ends.
        let (libraries, stderr) = try Self.loaded(["serve", "--db", db, "--host", "192.0.2.1", "--port", "0"])
        #expect(libraries == ["libmicrohttpd.so.12"])
        let errors = stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].hasPrefix("error: cannot listen on 192.0.2.1 port 0: "), "\(errors)")
    }
}
