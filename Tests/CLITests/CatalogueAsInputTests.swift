import Foundation
import Testing

/// The catalogue named as a file to import (`wardrobe import --db c.sqlite *` in the folder
/// that holds it) is never read as a photo. It used to be passed over without a word:
/// "Imported 0 of 0 files", status 0. It is now a failure naming it, the rest imported.
@Suite struct CatalogueAsInputTests {
    @Test func theCatalogueNamedForImportIsAFailureNamingIt() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        let (db, sample) = try folder.catalogueOfTheSample()
        try folder.write(try Array(Data(contentsOf: URL(fileURLWithPath: sample))) + [1], to: "other.png")

        let result = try WardrobeProcess.run(["import", "--db", db, db, folder.path("other.png")])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr == "error: \(db): is the catalogue this command writes (or a file SQLite keeps beside it); "
                + "not imported\n")
        // The catalogue is one of the files found, and the one that failed.
        #expect(result.stdout.hasPrefix("Imported 1 of 2 files"), "\(result.stdout)")
        #expect(result.stdout.contains(": 0 already there, 1 failed\n"), "\(result.stdout)")
    }
}
