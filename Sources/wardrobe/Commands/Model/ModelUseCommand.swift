import CommandLineKit
import Foundation
import Wardrobe

/// `wardrobe model use FILE`: the catalogue adopts a model, the default of
/// every command that classifies until another is chosen.
struct ModelUseCommand: Command {
    static let configuration = CommandConfiguration(
        name: "use",
        abstract: "Make a model the catalogue's default for import, reclassify, classify, prep and model evaluate.",
        alternatives: [.oneOf(["FILE"], ["--bundled"])],
        discussion: """
            Checks the model against the contract, registers it in the catalogue and keeps a copy
            of the file there, so moving or deleting the file later changes nothing. From then on
            every command that classifies or prepares images for a model uses it (and the prep
            recipe it records) unless --model names another for that one command; $WARDROBE_MODEL,
            when set, also wins. --bundled goes back to the bundled model. Nothing is
            re-classified: run 'wardrobe reclassify' to see what the model changes.
            'wardrobe model list' shows every model with its agreement with your labels.
            """)

    @Argument(name: "FILE", help: "The .aimodel file to adopt.", transform: ArgumentValues.modelPath)
    var path: String?
    @Flag(name: "--bundled", help: "Go back to the bundled model.")
    var bundled: Bool
    @OptionGroup var catalogue: CatalogueOptions

    func validate() throws(UsageError) {
        guard bundled != (path != nil) else {
            throw UsageError(bundled ? "give FILE or --bundled, not both" : "missing FILE (or --bundled)")
        }
    }

    func run(_ console: Console) throws -> ExitStatus {
        let setup = console.setup
        let catalogue = try setup.openCatalogue(explicit: self.catalogue.path)
        if let path {
            let adopted = try catalogue.adoptModel(at: path)
            let model = adopted.model
            let hash = model.sha256.prefix(6).map { String(format: "%02x", $0) }.joined()
            console.output("\(catalogue.path) now uses \(model.name) \(model.version) (\(hash), \(Format.escaped(model.path)))"
                           + (adopted.wasInUse ? ", as it did already" : ""))
            console.output("  for import, reclassify, classify, prep and model evaluate, with recipe "
                           + (model.recipe ?? "photo (the model records none)") + "; --model still picks another for one command")
            console.output("  a copy of the file is kept in the catalogue; 'wardrobe reclassify' re-labels the images with it")
        } else {
            try catalogue.adoptBundledModel()
            console.output("\(catalogue.path) now uses the bundled model (\(Format.escaped(try setup.modelPath(explicit: nil))))")
        }
        if let variable = setup.environment["WARDROBE_MODEL"], !variable.isEmpty {
            console.warning("WARDROBE_MODEL is set (\(Format.escaped(variable))) and wins over the catalogue's model while it is")
        }
        return .success
    }
}
