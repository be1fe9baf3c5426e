internal import Catalogue
import Files
import Foundation
import Imaging
import Inference
import Training

/// Opens what a command needs, from its options and the environment, with
/// errors that say which file and why.
///
/// `Process/` owns what a process running wardrobe's commands sets up and shares: this
/// setup, the start (`WardrobeProcess`), signals (`InterruptFlag`, `InheritedSignals`),
/// the arguments and the environment as file names (`SystemArguments`, `SystemEnvironment`),
/// the bundled files, the one error type and the version.
public struct WardrobeSetup: Sendable {
    public var environment: [String: String]
    /// The running binary, to find the bundled model beside it.
    public var executable: URL
    /// Where to tell a person something worth knowing that is no error (stderr).
    public var notice: @Sendable (String) -> Void

    public init(environment: [String: String], executable: URL, notice: @escaping @Sendable (String) -> Void = { _ in }) {
        self.environment = environment
        self.executable = executable
        self.notice = notice
    }

    /// The catalogue's file (see `CatalogueLocation`). `$WARDROBE_DB` set to `-` is refused, as
    /// `--db -` is: a catalogue is a file read and written in place, never stdin or stdout.
    public func cataloguePath(explicit: String?) throws(WardrobeError) -> String {
        try catalogueChoice(explicit: explicit).path
    }

    /// The same with whether a person named it (see `CatalogueLocation.Choice`).
    public func catalogueChoice(explicit: String?) throws(WardrobeError) -> CatalogueLocation.Choice {
        if explicit?.isEmpty != false, environment["WARDROBE_DB"] == "-" {
            throw .invalidArgument("WARDROBE_DB is -, which would make a catalogue file named '-': "
                                   + "a catalogue is a file, never stdin or stdout (./- names that file)")
        }
        return try CatalogueLocation.choose(explicit: explicit, environment: environment)
    }

    /// The command's catalogue (see `OpenCatalogue`), opened now: one that cannot be
    /// opened is said before anything else.
    public func openCatalogue(explicit: String?, mode: OpenCatalogue.Mode = .create,
                              sharedByThreads: Bool = false) throws -> OpenCatalogue {
        let catalogue = try catalogue(explicit: explicit, mode: mode, sharedByThreads: sharedByThreads)
        try catalogue.open()
        return catalogue
    }

    /// The command's catalogue, opened at its first use (see `OpenCatalogue`).
    public func catalogue(explicit: String?, mode: OpenCatalogue.Mode = .create,
                          sharedByThreads: Bool = false) throws -> OpenCatalogue {
        OpenCatalogue(choice: try catalogueChoice(explicit: explicit), mode: mode, setup: self,
                      sharedByThreads: sharedByThreads)
    }

    /// One line on a run whose process died before it closed the run.
    static func abandonedNotice(_ run: RunRecord) -> String {
        let started = ISO8601DateFormatter.string(from: run.startedAt, timeZone: TimeZone(identifier: "UTC")!,
                                                  formatOptions: [.withInternetDateTime])
        let kept = run.counts.classified == 1 ? "1 classification" : "\(run.counts.classified) classifications"
        return "run \(run.id) ('\(run.command)', started \(started)) was interrupted before it finished "
            + "(its process ended without closing it); the \(kept) it committed are kept; "
            + "running the same command again does the rest"
    }

    /// The model file `--model`, else `$WARDROBE_MODEL`, names, else the bundled one.
    public func modelPath(explicit: String?) throws(WardrobeError) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = try environmentModelPath() { return path }
        guard let path = BundledFiles.model(executable: executable) else { throw .noBundledModel }
        return path
    }

    /// `$WARDROBE_MODEL`, nil when unset or empty. Set to `-` it is refused, as `--model -` is:
    /// it was read as a file named '-' ("model -: cannot read"), where a person meant stdin,
    /// and a model is a file read whole and hashed, never a stream.
    public func environmentModelPath() throws(WardrobeError) -> String? {
        guard let path = environment["WARDROBE_MODEL"], !path.isEmpty else { return nil }
        guard path != "-" else {
            throw .invalidArgument("WARDROBE_MODEL is -, which would read a model file named '-': "
                                   + "a model is a file, never stdin (./- names that file)")
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

    /// The recipe rule of every command that prepares images for a model: the one named
    /// (`--prep`), else the one the model was trained for, else `photo`. Commands reach it
    /// through `OpenCatalogue`, which holds the model choice it depends on.
    func recipe(named name: String?, for model: ModelIdentity) throws(WardrobeError) -> any PrepRecipe {
        if name != nil { return try recipe(named: name) }
        return try Self.recipe(recordedBy: model.training, modelPath: model.path)
    }

    /// The rule without a name given: the recipe a model's training record names, else `photo`
    /// (also how a fine-tune runs its parent, `ModelTraining`).
    static func recipe(recordedBy training: [String: String], modelPath: String) throws(WardrobeError) -> any PrepRecipe {
        guard let recorded = training[TrainingMetadata.Key.recipe] else { return PrepRecipes.default }
        do {
            return try PrepRecipes.named(recorded)
        } catch {
            throw .model(path: modelPath, reason: "it was trained for the prep recipe \(recorded), which this build does not know; pass --prep NAME")
        }
    }

    /// The recipe rule for a command that does not load the model itself: reads only the
    /// chosen model file's metadata.
    func recipe(named name: String?, forModel choice: ModelChoice) throws(WardrobeError) -> any PrepRecipe {
        if name != nil { return try recipe(named: name) }
        let path = choice.path
        let file: ModelFile
        do {
            if let bytes = choice.bytes {
                file = try ModelFile(bytes: bytes)
            } else {
                file = try ModelFile(contentsOf: URL(fileURLWithPath: path))
            }
        } catch .unreadable(_, let reason) {
            // Said as every other command says it; 'model X: cannot read model X: ...' named it twice.
            throw .model(path: path, reason: "cannot read: \(reason)")
        } catch {
            throw .model(path: path, reason: error.description)
        }
        return try recipe(named: nil, for: ModelIdentity(path: path, name: file.description.name,
                                                         version: file.description.version, sha256: [],
                                                         parameterCount: 0, labels: file.description.labels,
                                                         training: file.description.training))
    }

    /// The names of the prep recipes this build knows.
    public static var recipeNames: [String] { PrepRecipes.names }

    /// True when `name` names a recipe (`photo`, or with its version).
    public static func knowsRecipe(_ name: String) -> Bool { (try? PrepRecipes.named(name)) != nil }

    /// The named recipe, or the default for imported photos.
    public func recipe(named name: String?) throws(WardrobeError) -> any PrepRecipe {
        guard let name else { return PrepRecipes.default }
        do {
            return try PrepRecipes.named(name)
        } catch {
            throw .invalidArgument(error.reason)
        }
    }

    /// The named recipe, every recipe for "all" (to compare them), or, for no name, the
    /// model's (see `recipe(named:for:)`).
    func recipes(named name: String?, for model: ModelIdentity) throws(WardrobeError) -> [any PrepRecipe] {
        name == "all" ? PrepRecipes.all : [try recipe(named: name, for: model)]
    }
}
