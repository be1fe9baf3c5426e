import Catalogue
import Testing

/// `WrittenSchema` is what the embedded migrations make: when it is not, every command
/// that writes makes a catalogue in memory to compare the schema with (correct, but about
/// 10 ms of CPU more). The failure prints the lines to put in WrittenSchema.swift.
@Suite struct WrittenSchemaTests {
    @Test func theDigestsAreThoseOfTheSchemaTheMigrationsMake() throws {
        let made = try Catalogue(path: ":memory:", mode: .create)
        let digests = try Catalogue.schemaText(made.database).mapValues(WrittenSchema.digest)
        let lines = digests.keys.sorted().map { "        \"\($0)\": 0x\(String(digests[$0]!, radix: 16)),\n" }.joined()
        let expected = "    public static let version = \(Migrator.embedded.latestVersion)\n\n"
            + "    public static let digests: [String: UInt64] = [\n" + lines + "    ]\n"
        #expect(WrittenSchema.version == Migrator.embedded.latestVersion && WrittenSchema.digests == digests,
                "WrittenSchema.swift should read:\n\(expected)")
    }

    /// One changed character anywhere in a statement's text changes its digest.
    @Test func aBitFlippedInTheTextChangesTheDigest() {
        let text = "CREATE TRIGGER t AFTER INSERT ON image_paths BEGIN DELETE FROM f WHERE path = NEW.path; END"
        let bytes = Array(text.utf8)
        let flipped = bytes.indices.map { at in
            var changed = bytes
            changed[at] ^= 0x04
            return WrittenSchema.digest(String(decoding: changed, as: UTF8.self))
        }
        #expect(!flipped.contains(WrittenSchema.digest(text)))
        #expect(Set(flipped).count == flipped.count)
    }
}
