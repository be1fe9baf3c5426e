import Catalogue
import CatalogueFixtures
import Foundation
import Testing

/// Machines have names: the same folder seen by two machines sharing one catalogue is two
/// sets of paths, each judged by its own machine only.
@Suite struct MachinePathTests {
    typealias Engine = EngineParityTests.Engine

    @Test(arguments: EngineParityTests.engines)
    func twoMachinesOverOneFolderKeepSeparatePathStates(engine: Engine) throws {
        let opened = try EngineParityTests.Opened(engine)
        defer { opened.directory.remove() }
        let alpha = try CatalogueStorage.open(opened.location, access: .readWrite, machine: "alpha")
        let beta = try CatalogueStorage.open(opened.location, access: .readWrite, machine: "beta")
        let model = try alpha.registerModel(Synthetic.model())
        let recipe = Recipe(name: "photo", version: 1)
        let images = (0..<3).map { Synthetic.image($0) }
        let paths = images.map { $0.file!.path }
        for store in [alpha, beta] {
            let run = try store.openRun(command: "import", model: model, recipe: recipe)
            try store.writing(run: run) { batch in
                try batch.insertImages(images, known: .isClassifiedAgain)
                return RunCounts()
            }
            try store.closeRun(run, counts: RunCounts())
        }
        // The images are stored once; each machine has its own three paths.
        #expect(try alpha.stats().images == 3 && alpha.stats().paths == 6)
        #expect(try alpha.knownPaths().map(\.machine) == ["alpha", "alpha", "alpha"])
        #expect(try beta.knownPaths(under: "/photos").map(\.machine) == ["beta", "beta", "beta"])
        #expect(Set(try alpha.paths(of: ImageID(1)).map(\.machine)) == ["alpha", "beta"])

        // On beta the first file is gone and the second is dropped; alpha's stay as they were.
        let look = try beta.recordLook(present: [paths[2]], missing: [paths[0]], dropMissing: false)
        #expect(look.checked == 2 && look.newlyMissing == 1)
        try beta.recordLook(present: [], missing: [paths[1]], dropMissing: true)
        #expect(try beta.knownPath(paths[0])?.isMissing == true)
        #expect(try beta.knownPath(paths[1]) == nil)
        for path in paths { #expect(try alpha.knownPath(path)?.isMissing == false, "\(path)") }
        #expect(try alpha.knownPaths().count == 3 && beta.knownPaths().count == 2)
        #expect(try alpha.image(path: paths[1])?.id == ImageID(2))
        #expect(try beta.image(path: paths[1]) == nil)

        // Alpha's look does not bring beta's gone file back, nor judge it.
        let alphaLook = try alpha.recordLook(present: paths, missing: [], dropMissing: false)
        #expect(alphaLook.checked == 3 && alphaLook.back == 0)
        #expect(try beta.knownPath(paths[0])?.isMissing == true)
        #expect(try alpha.stats().missingPaths == 1)

        // A listing names the machine of the best path, which is an existing one.
        let listed = try alpha.currentClassifications(ClassificationQuery(order: .imageID))
        #expect(listed.count == 3)
        #expect(listed[0].pathMachine == "alpha" && !listed[0].pathMissing)
        #expect(Machine.shown("/photos/a.jpg", on: "beta", from: "alpha") == "beta:/photos/a.jpg")
        #expect(Machine.shown("/photos/a.jpg", on: "alpha", from: "alpha") == "/photos/a.jpg")
    }
}
