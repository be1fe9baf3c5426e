internal import Catalogue
import Foundation

/// The use cases that change what a person sees: labels, forgetting, pruning,
/// the model in use, and a backup.
extension OpenCatalogue {
    /// `label`, and a page's form: a person's act on images, all of them in one
    /// transaction; `command` is recorded with it. `places` says where each reference was read.
    public func label(_ act: Labeller.Act, _ images: [ImageReference], places: [String?] = [],
                      command: String = "label") throws -> [Labeller.Change] {
        try changing { store in try Labeller(catalogue: store, command: command).apply(act, to: images, places: places) }
    }

    /// `colour`: a person's colour for images (a palette name; nil takes it back), all of them
    /// in one transaction; `command` is recorded with it.
    public func setColour(_ colour: String?, _ images: [ImageReference], places: [String?] = [],
                          command: String = "colour") throws -> [ColourSetter.Change] {
        try changing { store in try ColourSetter(catalogue: store, command: command).apply(colour, to: images, places: places) }
    }

    /// `forget`, first half: the images named, each resolved before anything is removed, and an
    /// error for each reference that names none (`places` says where each was read). What an
    /// earlier forget removed and left in the file (stopped before its checkpoint, or held back
    /// by a reader, which its warning said the next forget would finish) is overwritten first:
    /// run again on the same images, forget stopped at 'not found' and left those bytes there.
    public func imagesToForget(_ images: [ImageReference], places: [String?] = []) throws -> Forgetter.Found {
        try changing { store in
            try store.finishForgetting()
            return try Forgetter.resolve(images, places: places, in: store)
        }
    }

    /// `forget`, second half: removes them for good.
    public func forget(_ images: [Forgetter.ImageSummary]) throws -> Forgetter.Report {
        try changing { store in try Forgetter.forget(images, in: store) }
    }

    /// `prune`: looks again at the files under `roots` (all when empty).
    public func prune(_ roots: [String], dropMissing: Bool) throws -> PathLook.Report {
        try changing { store in try PathLook.prune(roots, dropMissing: dropMissing, in: store) }
    }

    /// `model use FILE`: the catalogue adopts the model in that file.
    public func adoptModel(at path: String) throws -> ModelAdopter.Adopted {
        try changing { store in try ModelAdopter(catalogue: store).adopt(modelAt: path) }
    }

    /// `model use --bundled`.
    public func adoptBundledModel() throws {
        try changing { store in try ModelAdopter(catalogue: store).adoptBundled() }
    }

    /// `backup`: a checked copy at `path` (or in the folder `path` names).
    public func backup(to path: String) throws -> CatalogueBackup {
        try reading { store, _ in try CatalogueBackup(of: store, to: path) }
    }

    /// `copy`: this whole catalogue into `destination`, a new or empty catalogue of either engine.
    public func copy(to destination: OpenCatalogue) throws -> CatalogueCopy {
        try reading { store, _ in try CatalogueCopy(of: store, to: destination) }
    }
}
