import Foundation
import Testing

/// libpq, libheif, libmicrohttpd and OpenBLAS (with the libraries each brings: Kerberos and
/// OpenSSL, the HEVC and AV1 codecs, GnuTLS) are loaded when a command first needs them: a
/// catalogue on a server, a HEIC or AVIF photo, `serve`, training. Linked, they were loaded at every start:
/// 3.5 ms, 1.7 ms and 1.1 ms of CPU on each command, of `list`'s 15 to 20. glibc's loader
/// says which libraries it opens (`LD_DEBUG=libs`), so the tests read that.
@Suite struct LazyLibraryLoadingTests {
    static let libraries = ["libpq.so.5", "libheif.so.1", "libmicrohttpd.so.12", "libopenblas.so.0"]

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

    @Test func trainingLoadsOpenBLASAndTrains() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (libraries, stderr) = try Self.loaded(["model", "train", "--limit", "256", "--epochs", "1",
                                                   "--out", folder.path("tiny.aimodel")])
        #expect(libraries == ["libopenblas.so.0"], "\(stderr.suffix(300))")
        #expect(FileManager.default.fileExists(atPath: folder.path("tiny.aimodel")))
    }

    /// Linked, OpenBLAS started its pool of threads as every command loaded, and under a limit
    /// on address space each pool thread retried its buffer's allocation for ever: `wardrobe
    /// --version` hung with a core busy. Run under `timeout`, so that a hang fails, not waits.
    @Test func aLimitOnAddressSpaceDoesNotHangACommand() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (db, _) = try folder.catalogueOfTheSample()
        for arguments in [["--version"], ["list", "--db", db, "--json"], ["stats", "--db", db]] {
            let limited = try WardrobeProcess.shell("ulimit -v 200000 && exec /usr/bin/timeout 30 \"$0\" \"$@\"", arguments)
            #expect(limited.status == 0, "\(arguments): status \(limited.status) (124: it hung) \(limited.stderr)")
        }
    }

    /// A training under such a limit is refused before it starts: it hung in OpenBLAS's
    /// allocation of its buffer (1 GB) or stopped with Swift's "failed to allocate" (400 MB).
    @Test func aTrainingUnderALimitOnAddressSpaceIsRefusedInOneLine() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        for limit in [400_000, 1_000_000] {
            let limited = try WardrobeProcess.shell("ulimit -v \(limit) && exec /usr/bin/timeout 60 \"$0\" \"$@\"",
                                                    ["model", "train", "--limit", "256", "--epochs", "1", "--out", folder.path("t.aimodel")])
            let lines = limited.stderr.split(separator: "\n")
            #expect(limited.status == 1 && lines.count == 1 && lines[0].contains("ulimit -v"), "\(limit): \(limited.status) \(lines.prefix(3))")
            #expect(!FileManager.default.fileExists(atPath: folder.path("t.aimodel")))
        }
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
