import Catalogue
import Foundation
import Imaging
import Server
@testable import Wardrobe

/// A catalogue of real photos from ../shared/data/clothing-photos/validation
/// (three per folder, plus two more under names that are HTML), imported
/// with the bundled model, served on a free port for the whole test run.
final class ServedCatalogue: @unchecked Sendable {
    static let hostileNames = ["<script>alert(1)<!--.jpg", "<img src=x onerror=alert(1)>.jpg"]

    /// Where the validation photos are, or nil (the tests then skip, saying so).
    static let photos: String? = {
        let shared = ProcessInfo.processInfo.environment["WARDROBE_SHARED"] ?? "../shared"
        let folder = URL(fileURLWithPath: shared).appendingPathComponent("data/clothing-photos/validation").path
        return FileManager.default.fileExists(atPath: folder) ? folder : nil
    }()

    static let skipMessage = "no photos at ../shared/data/clothing-photos/validation (set WARDROBE_SHARED): server tests skipped"

    /// Built once, on first use.
    static let shared: ServedCatalogue = {
        do { return try ServedCatalogue() } catch { fatalError("cannot build the served catalogue: \(error)") }
    }()

    let root: URL
    let cataloguePath: String
    let site: WardrobeSite
    let server: HTTPServer
    var client: RawHTTP { RawHTTP(port: server.port) }

    private init() throws {
        guard let photos = ServedCatalogue.photos else { throw RawHTTPError(ServedCatalogue.skipMessage) }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-serve-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("photos")
        let files = FileManager.default
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        var spare: [URL] = []
        for kind in try files.contentsOfDirectory(atPath: photos).sorted() {
            let source = URL(fileURLWithPath: photos).appendingPathComponent(kind)
            let names = try files.contentsOfDirectory(atPath: source.path).sorted()
            let target = folder.appendingPathComponent(kind)
            try files.createDirectory(at: target, withIntermediateDirectories: true)
            for name in names.prefix(3) {
                try files.copyItem(at: source.appendingPathComponent(name), to: target.appendingPathComponent(name))
            }
            spare += names.dropFirst(3).prefix(1).map { source.appendingPathComponent($0) }
        }
        for (name, source) in zip(ServedCatalogue.hostileNames, spare) {
            try files.copyItem(at: source, to: folder.appendingPathComponent(name))
        }
        cataloguePath = root.appendingPathComponent("catalogue.sqlite").path
        let catalogue = try Catalogue(path: cataloguePath)
        let classifier = try ClothingClassifier(modelAt: files.currentDirectoryPath + "/Models/clothing.aimodel")
        let importer = Importer(catalogue: catalogue, classifier: classifier)
        let options = ImportOptions(paths: [folder.path], jobs: 2, recipe: PrepRecipes.default)
        _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
        site = try WardrobeSite.over(cataloguePath, readOnly: false)
        server = try HTTPServer(host: "127.0.0.1", port: 0, handler: site)
    }

    /// A second site and server on a copy of the catalogue, for tests that
    /// change labels without racing the suites that read this one.
    func servedCopy() throws -> (site: WardrobeSite, server: HTTPServer, path: String) {
        let path = root.appendingPathComponent("copy-\(UUID().uuidString).sqlite").path
        try catalogue().database.execute("VACUUM INTO :path", [":path": path])
        let site = try WardrobeSite.over(path, readOnly: false)
        return (site, try HTTPServer(host: "127.0.0.1", port: 0, handler: site), path)
    }

    /// A fresh connection of the test's own, to check what the server wrote.
    func catalogue() throws -> Catalogue { try Catalogue(path: cataloguePath, mode: .readOnly) }

    func correctionCount() throws -> Int64 {
        try catalogue().database.scalarInt("SELECT count(*) FROM corrections") ?? -1
    }
}

extension WardrobeSite {
    /// A site on 127.0.0.1 over the catalogue at `path`, opened as `wardrobe serve` opens it.
    static func over(_ path: String, readOnly: Bool) throws -> WardrobeSite {
        let setup = WardrobeSetup(environment: [:], executable: URL(
            fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/release/wardrobe"))
        let catalogue = try setup.openCatalogue(explicit: path, mode: readOnly ? .readOnly : .readWrite, sharedByThreads: true)
        return WardrobeSite(catalogue: catalogue, boundHost: "127.0.0.1", readOnly: readOnly)
    }
}
