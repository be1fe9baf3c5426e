import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// What an opening of a PostgreSQL database finds, in its one question to the server (the
/// schema step, with the read-only setting) or, where no step is recorded, in the look at the
/// database's tables after it.
@Suite(.enabled(if: TestPostgres.isInstalled, "PostgreSQL is not installed (make deps installs it)"))
struct PostgresOpeningTests {
    static func databaseName(_ url: String) -> String { String(url.split(separator: "/").last!) }

    @Test func anEmptyDatabaseIsNoCatalogueUntilOneIsMadeInIt() throws {
        let url = try TestPostgres.shared().newDatabase()
        let name = try #require(PostgresLocation(url)).displayName
        for access in [CatalogueStorage.Access.readOnly, .readWrite] {
            #expect(throws: CatalogueError.fileNotFound(path: name)) { try CatalogueStorage.open(url, access: access) }
        }
        #expect(try CatalogueStorage.open(url, access: .create).version == (try CatalogueStorage.open(url, access: .readOnly).version))
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() throws {
        let url = try TestPostgres.shared().newDatabase()
        try TestPostgres.shared().psql(Self.databaseName(url), "CREATE TABLE invoices (id bigint)")
        let name = try #require(PostgresLocation(url)).displayName
        for access in [CatalogueStorage.Access.readOnly, .readWrite, .create] {
            #expect(throws: CatalogueError.foreignDatabase(path: name, detail: "tables invoices")) {
                try CatalogueStorage.open(url, access: access)
            }
        }
        // It was called "an SQLite database of another program".
        #expect("\(CatalogueError.foreignDatabase(path: name, detail: "tables invoices"))"
                == "\(name): not a wardrobe catalogue (a PostgreSQL database of another program: tables invoices); refusing to change it")
        #expect(try TestPostgres.shared().psql(Self.databaseName(url), "SELECT string_agg(tablename, ',') FROM pg_tables "
                                              + "WHERE schemaname = 'public'").trimmingCharacters(in: .whitespacesAndNewlines) == "invoices")
    }

    @Test func aCatalogueIsMadeOnlyInADatabaseWhoseEncodingIsUTF8() throws {
        let postgres = try TestPostgres.shared()
        let name = "latin1_\(getpid())"
        try postgres.psql("postgres", "CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'")
        let url = postgres.url(name)
        let shown = try #require(PostgresLocation(url)).displayName
        #expect(throws: CatalogueError.self) { try CatalogueStorage.open(url, access: .create) }
        do {
            _ = try CatalogueStorage.open(url, access: .create)
        } catch let error as CatalogueError {
            guard case .cannotCreate(let path, let reason) = error else { Issue.record("\(error)"); return }
            #expect(path == shown && reason.contains("LATIN1") && reason.contains("UTF8"), "\(reason)")
        }
        #expect(try postgres.psql(name, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        // One made there before the rule (a catalogue's dump restored into it) is read, and not written.
        let source = try postgres.newDatabase()
        let version = try CatalogueStorage.open(source, access: .create).version
        let dump = try #require(TestPostgres.programs) + "/pg_dump"
        let restore = Process()
        restore.executableURL = URL(fileURLWithPath: "/bin/sh")
        restore.arguments = ["-c", "\"$0\" -h \"$1\" -U postgres \"$2\" | psql -q -X -v ON_ERROR_STOP=1 -h \"$1\" -U postgres \"$3\"",
                             dump, postgres.folder, Self.databaseName(source), name]
        restore.standardOutput = FileHandle.nullDevice
        try restore.run()
        restore.waitUntilExit()
        #expect(restore.terminationStatus == 0)
        #expect(try CatalogueStorage.open(url, access: .readOnly).version == version)
        do {
            _ = try CatalogueStorage.open(url, access: .readWrite)
            Issue.record("a catalogue in a LATIN1 database was opened for writing")
        } catch let error as CatalogueError {
            guard case .notOnThisEngine(let location, let detail) = error else { Issue.record("\(error)"); return }
            #expect(location == shown && detail.contains("LATIN1") && detail.contains("wardrobe copy"), "\(detail)")
        }
    }

    @Test func aNewerCatalogueIsRefusedAndAReadOnlyOpeningWritesNothing() throws {
        let url = try TestPostgres.shared().newDatabase()
        let current = try CatalogueStorage.open(url, access: .create).version
        let reader = try CatalogueStorage.open(url, access: .readOnly)
        #expect(throws: CatalogueError.self) { try reader.registerModel(Synthetic.model(1)) }
        try TestPostgres.shared().psql(Self.databaseName(url),
                                       "INSERT INTO wardrobe_migrations VALUES (\(current + 1), 'from_the_future', 0)")
        let name = try #require(PostgresLocation(url)).displayName
        for access in [CatalogueStorage.Access.readOnly, .readWrite] {
            #expect(throws: CatalogueError.newerCatalogue(path: name, version: current + 1, supported: current)) {
                try CatalogueStorage.open(url, access: access)
            }
        }
    }
}
