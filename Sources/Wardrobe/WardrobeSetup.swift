import Catalogue
import Foundation
import Imaging

/// Opens what a command needs, from its options and the environment, with
/// errors that say which file and why.
public struct WardrobeSetup: Sendable {
    public var environment: [String: String]
    /// The running binary, to find the bundled model beside it.
    public var executable: URL

    public init(environment: [String: String], executable: URL) {
        self.environment = environment
        self.executable = executable
    }

    public func cataloguePath(explicit: String?) -> String {
        CatalogueLocation.resolve(explicit: explicit, environment: environment)
    }

    /// Opens (creating if needed) the catalogue and migrates it.
    public func openCatalogue(explicit: String?, mode: Database.Mode = .create) throws -> Catalogue {
        try Catalogue(path: cataloguePath(explicit: explicit), mode: mode)
    }

    public func modelPath(explicit: String?) throws(WardrobeError) -> String {
        guard let path = BundledFiles.model(explicit: explicit, environment: environment, executable: executable) else {
            throw .noBundledModel
        }
        return path
    }

    public func samplePath() throws(WardrobeError) -> String {
        guard let path = BundledFiles.sample(executable: executable) else {
            throw .notFound("the bundled sample \(BundledFiles.sampleName)")
        }
        return path
    }

    /// Loads and prepares the model: once per process.
    public func classifier(explicit: String?) throws(WardrobeError) -> ClothingClassifier {
        try ClothingClassifier(modelAt: modelPath(explicit: explicit))
    }

    /// The named recipe, or the default for imported photos.
    public func recipe(named name: String?) throws(WardrobeError) -> any PrepRecipe {
        guard let name else { return PrepRecipes.default }
        do {
            return try PrepRecipes.named(name)
        } catch {
            throw .invalidArgument(error.reason)
        }
    }

    /// The named recipe as `recipe(named:)` finds it, or every recipe for
    /// "all" (to compare them).
    public func recipes(named name: String?) throws(WardrobeError) -> [any PrepRecipe] {
        name == "all" ? PrepRecipes.all : [try recipe(named: name)]
    }
}
