internal import Catalogue
import CCrypto
import Files
import Foundation

/// `wardrobe copy SOURCE DEST`: the whole catalogue into a new or empty one, of
/// either engine (an SQLite file, a PostgreSQL database), checked before it is kept:
/// every table's rows counted and digested (SHA-256, in key order) on both sides
/// (see `CatalogueCopier`). The destination is made at this wardrobe's schema step;
/// the source must be at it too (an older one is refused as every reading command
/// refuses it, and is upgraded by any command that writes to it).
public struct CatalogueCopy: Sendable, Encodable {
    /// Both catalogues as messages name them: a server's without its password.
    public var source: String
    public var destination: String
    public var images: Int
    public var paths: Int
    public var classifications: Int
    public var corrections: Int
    public var runs: Int
    public var models: Int
    /// Every table's rows and their SHA-256, the same in the source and in the copy.
    public var tables: [Table]
    public var seconds: Double

    public struct Table: Sendable, Encodable {
        public var name: String
        public var rows: Int
        public var sha256: String
    }

    public var rows: Int { tables.reduce(0) { $0 + $1.rows } }

    init(of source: any CatalogueStore, to destination: OpenCatalogue) throws {
        let started = Date()
        try CatalogueCopy.refuseNonEmpty(destination)
        // The files of an SQLite catalogue this copy makes are the copy's until it is whole: a
        // copy that fails or is stopped takes them away, as a backup takes its part away.
        // Left, the new catalogue held no row (and its log, on a full disk, the space), and
        // looked like a copy that had been made.
        let made = CatalogueStorage.files(of: destination.location).map(\.path).filter { path in
            var status = stat()
            return lstat(path, &status) != 0 && errno == ENOENT
        }
        // Known to the signal handler before SQLite makes them (`InterruptFlag`, which the
        // command installs: a signal during a copy ends the process and removes them).
        let partials = made.map(PartialFiles.register)
        defer { partials.forEach(PartialFiles.unregister) }
        let target: any CatalogueStore
        let copies: [CatalogueCopier.TableCopy]
        do {
            target = try destination.store()
            copies = try CatalogueCopier.copy(from: source, to: target) { RunningSHA256() }
        } catch {
            for path in made { unlink(path) }
            throw error
        }
        self.source = source.path
        self.destination = target.path
        tables = copies.map { Table(name: $0.table, rows: $0.rows, sha256: $0.digest.map { String(format: "%02x", $0) }.joined()) }
        let rows = Dictionary(copies.map { ($0.table, $0.rows) }, uniquingKeysWith: { first, _ in first })
        images = rows["images"] ?? 0
        paths = rows["image_paths"] ?? 0
        classifications = rows["classifications"] ?? 0
        corrections = rows["corrections"] ?? 0
        runs = rows["runs"] ?? 0
        models = rows["models"] ?? 0
        seconds = Date().timeIntervalSince(started)
    }

    /// A destination that holds a catalogue already is looked at read-only first, so that one
    /// with rows is refused as it was found (not upgraded, no run of it marked).
    private static func refuseNonEmpty(_ destination: OpenCatalogue) throws {
        let existing: any CatalogueStore
        do {
            existing = try CatalogueStorage.open(destination.location, access: .readOnly)
        } catch CatalogueError.fileNotFound {
            return
        }
        guard try CatalogueCopier.isEmpty(existing) else {
            throw CatalogueError.copyRefused(path: destination.path, reason: "it is not empty; copy writes only into "
                                             + "a new or empty catalogue, and this one was left as it was")
        }
    }
}

/// SHA-256 fed piece by piece (OpenSSL's EVP interface), for `CatalogueCopier`'s digests.
private final class RunningSHA256: RowDigest {
    private let context: OpaquePointer

    init() {
        context = EVP_MD_CTX_new()
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "OpenSSL SHA-256 failed")
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1 && length == 32, "OpenSSL SHA-256 failed")
        return digest
    }
}
