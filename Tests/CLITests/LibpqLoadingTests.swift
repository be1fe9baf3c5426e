import Foundation
import Testing

/// libpq (and the eleven libraries it brings: Kerberos, LDAP, SASL, OpenSSL...) is loaded
/// only when a catalogue on a server is opened. Linked, it was loaded at every start and
/// added 3.5 ms of CPU to each command on a catalogue file. glibc's loader says which
/// libraries it opens (`LD_DEBUG=libs`), so the tests read that.
@Suite struct LibpqLoadingTests {
    static func loadsLibpq(_ arguments: [String]) throws -> (loads: Bool, stderr: String) {
        let result = try WardrobeProcess.run(arguments, environment: ["LD_DEBUG": "libs"])
        return (result.stderr.contains("libpq.so.5"), result.stderr)
    }

    @Test func aCommandOnACatalogueFileDoesNotLoadLibpq() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let db = folder.path("c.sqlite")
        for arguments in [["stats", "--db", db], ["list", "--db", db, "--json"], ["--version"]] {
            let (loads, stderr) = try Self.loadsLibpq(arguments)
            #expect(!loads, "\(arguments): \(stderr.split(separator: "\n").filter { $0.contains("libpq") }.prefix(3))")
        }
    }

    @Test func aCatalogueOnAServerLoadsItAndSaysWhyItCannotConnect() throws {
        // Port 1 on this machine: nothing listens, so libpq is loaded and the connection refused.
        let (loads, stderr) = try Self.loadsLibpq(["stats", "--db", "postgresql://someone:sekrit@127.0.0.1:1/wardrobe"])
        #expect(loads)
        let errors = stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].hasPrefix("error: postgresql://someone@127.0.0.1:1/wardrobe: "), "\(errors)")
        #expect(!stderr.contains("sekrit"))
    }
}
