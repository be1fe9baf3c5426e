import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// `stats(cache:)` keeps its counts while nothing is committed and takes
/// them again after any commit: another connection's, or the connection's own.
@Suite struct StatsCacheTests {
    typealias Setup = CatalogueStoreTests.Setup

    func filled() throws -> (Setup, [ImageID]) {
        let setup = try Setup()
        let inserted = try setup.catalogue.insertImages((0..<60).map { Synthetic.image($0) }, run: setup.run)
        return (setup, inserted.map(\.image))
    }

    @Test func aReaderReusesItsCountsUntilAnotherConnectionCommits() throws {
        let (setup, images) = try filled()
        defer { setup.directory.remove() }
        let reader = try Catalogue(path: setup.directory.path("wardrobe.sqlite"), mode: .readOnly)
        let cache = StatsCache()
        let first = try reader.stats(cache: cache)
        #expect(cache.reuses == 0)
        #expect(try reader.stats(cache: cache) == first)
        #expect(try reader.stats(cache: cache) == first)
        #expect(cache.reuses == 2, "nothing was committed, so the counts were kept")

        // `none`: no model gives it, so its count goes from nothing to one.
        let label = Catalogue.noneLabel
        #expect(!first.labels.contains { $0.label == label })
        try setup.catalogue.correct([images[0]], .label(label), command: "test")
        let after = try reader.stats(cache: cache)
        #expect(cache.reuses == 2, "the writer's commit made the reader count again")
        #expect(after.corrections == 1 && after.corrected == 1)
        #expect(after.labels.first { $0.label == label }?.count == 1)
        #expect(after == (try reader.stats()), "the same as counting without a cache")
        #expect(try reader.stats(cache: cache) == after)
        #expect(cache.reuses == 3)
    }

    @Test func theConnectionsOwnWritesAreSeen() throws {
        let (setup, images) = try filled()
        defer { setup.directory.remove() }
        let catalogue = setup.catalogue
        let cache = StatsCache()
        let before = try catalogue.stats(cache: cache)
        // data_version does not move for a connection's own commits; its count of changed rows does.
        try catalogue.correct([images[1]], .label(Catalogue.noneLabel), command: "test")
        let after = try catalogue.stats(cache: cache)
        #expect(cache.reuses == 0)
        #expect(before.corrections == 0 && after.corrections == 1)
        #expect(after == (try catalogue.stats()))
    }

    @Test func aCacheFilledOnOneConnectionIsNotUsedOnAnother() throws {
        let (setup, images) = try filled()
        defer { setup.directory.remove() }
        let path = setup.directory.path("wardrobe.sqlite")
        let cache = StatsCache()
        let one = try Catalogue(path: path, mode: .readOnly)
        _ = try one.stats(cache: cache)
        try setup.catalogue.correct([images[2]], .label(Catalogue.noneLabel), command: "test")
        // A fresh connection's data_version may equal the first one's: the cache must not be trusted across them.
        let other = try Catalogue(path: path, mode: .readOnly)
        let seen = try other.stats(cache: cache)
        #expect(cache.reuses == 0)
        #expect(seen.corrections == 1)
    }
}
