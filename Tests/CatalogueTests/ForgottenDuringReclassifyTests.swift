import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// `forget` beside a `reclassify` on one catalogue: the run listed its images, then some were
/// forgotten. Their leases failed the images' foreign key, and the run stopped with SQLite's
/// "FOREIGN KEY constraint failed" and the lease's SQL (its batch of classifications, had the
/// lease been taken first, likewise); each is now passed over, on both engines.
@Suite struct ForgottenDuringReclassifyTests {
    @Test(arguments: EngineParityTests.engines)
    func anImageForgottenSinceTheRunListedItIsPassedOver(engine: EngineParityTests.Engine) throws {
        let setup = try CorrectionTests.Filled(engine)
        defer { setup.opened.directory.remove() }
        let catalogue = setup.catalogue
        let ids = try setup.insert((0..<3).map { Synthetic.image($0) }).map(\.image)
        let recipe = Recipe(name: "photo", version: 4)
        let run = try catalogue.openRun(command: "reclassify", model: setup.model, recipe: recipe)
        let split = try catalogue.reclassificationSplit(model: setup.model, recipe: recipe)

        _ = try catalogue.forget([ids[1]])
        let leases = try catalogue.leaseImages(ids, in: split, owner: "reclassifier", until: Date().addingTimeInterval(60),
                                               at: Date())
        #expect(leases == [.taken, .gone, .taken])

        // Leased, then forgotten before its classification was written.
        _ = try catalogue.forget([ids[2]])
        try setup.classify([(ids[0], Synthetic.classification(0, variant: 1)), (ids[2], Synthetic.classification(2, variant: 1))],
                           run: run)
        #expect(try catalogue.history(of: ids[0]).map(\.classification.run) == [setup.run, run])
        #expect(try catalogue.history(of: ids[2]).isEmpty)
    }
}
