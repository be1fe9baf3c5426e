internal import Catalogue
import Files
import Foundation
import Imaging

/// A command's catalogue: opened once, held with the rule that chooses the
/// model and the recipe, and the one way in to it. Its methods are the use
/// cases (import, classify, reclassify, label, forget, prune, the queries,
/// history, stats, the server's pages, model use and list, training from
/// corrections, backup), which the commands and the server both call.
///
/// The catalogue is opened at its first use, and only then: a command that
/// needs it only for the model choice (`prep`, `model info`) and finds no
/// catalogue there made none; one that makes it (`import`) makes it after the
/// model has loaded, so a bad model leaves no empty catalogue behind.
///
/// Shared by a server's threads (`sharedByThreads`), each thread reads through a
/// connection no other reads through meanwhile and every change goes through this one,
/// one at a time.
///
/// `CatalogueAccess/` owns the way in: this type and its use cases by family
/// (`OpenCatalogue+Topic`), where the catalogue lives (`CatalogueLocation`), backup, copies
/// between engines (`CatalogueCopy`), what is said of damage (`CatalogueCheck`), and the
/// server's read connections (`ThreadReaders`).
public final class OpenCatalogue: @unchecked Sendable {
    /// How the command means to use it.
    public enum Mode: Sendable, Equatable {
        /// Read and write; made if it is not there.
        case create
        /// Read and write one that exists.
        case readWrite
        /// Read one that exists.
        case readOnly
    }

    /// The catalogue's location, as messages name it: a server's without its password.
    public let path: String
    /// What the catalogue is opened with: `path`, or a server's connection string with its password.
    let location: String
    public let mode: Mode
    let setup: WardrobeSetup
    /// Whether a person named it (`--db`, `$WARDROBE_DB`): only a defaulted one gets its folders made.
    private let isNamed: Bool
    /// The command's connection, once opened (under `opening`); changes go through it
    /// under `changes`.
    private var opened: (any CatalogueStore)?
    /// The file `location` named when it was opened (nil for a server's catalogue), which
    /// `changing` checks it still names.
    private var openedFile: CatalogueFileIdentity?
    private let opening = NSLock()
    private let changes = NSLock()
    /// Threads' own read connections, for a catalogue shared by threads.
    private let readers: ThreadReaders?
    /// The model the rule chose and that model's recipe, once asked (under `choosing`:
    /// a server's threads ask at once).
    private var chosen: ModelChoice?
    private var chosenRecipe: (any PrepRecipe)?
    private let choosing = NSLock()

    init(choice: CatalogueLocation.Choice, mode: Mode, setup: WardrobeSetup, sharedByThreads: Bool) {
        path = CatalogueStorage.displayName(of: choice.path)
        location = choice.path
        isNamed = choice.isNamed
        self.mode = mode
        self.setup = setup
        readers = sharedByThreads ? ThreadReaders(location: choice.path) : nil
    }

    /// The command's connection, opened now if it is not yet. A new catalogue at the default
    /// place gets its folders made; at a path a person gave (`--db`, `$WARDROBE_DB`) its folder
    /// must exist, as for every file the tool writes where it is told (`export --output`,
    /// `backup`): a mistyped folder, or a `~` no shell expanded, is an error naming that
    /// folder, not a new tree of folders nobody looks in. Opened for writing, it says which
    /// runs died before they finished (once: the opening marks them).
    func store() throws -> any CatalogueStore {
        opening.lock()
        defer { opening.unlock() }
        return try openedStore(lookForDamage: true)
    }

    private func openedStore(lookForDamage: Bool) throws -> any CatalogueStore {
        if let opened { return opened }
        if mode == .create, isNamed, !CatalogueStorage.isServer(location), let problem = ParentFolder.problem(for: path) {
            throw CatalogueError.cannotCreate(path: path, reason: "\(problem); make it first, or check the name")
        }
        let access: CatalogueStorage.Access = switch mode {
        case .create: .create
        case .readWrite: .readWrite
        case .readOnly: .readOnly
        }
        let store = try CatalogueStorage.open(location, access: access, lookForDamage: lookForDamage)
        for run in store.abandonedRuns { setup.notice(WardrobeSetup.abandonedNotice(run)) }
        if !CatalogueStorage.isServer(location) { openedFile = CatalogueFileIdentity(of: location) }
        opened = store
        return store
    }

    /// The connection when a catalogue is there, nil when none is yet (no file, or an empty
    /// one: `touch`, `mktemp`, an empty database on a server), which has adopted no model. Nothing is made for the asking,
    /// and a catalogue only read for this is not looked at for damage (as `check` would).
    func storeIfPresent() throws -> (any CatalogueStore)? {
        opening.lock()
        defer { opening.unlock() }
        if let opened { return opened }
        guard CatalogueStorage.isServer(location) || FileManager.default.fileExists(atPath: location) else { return nil }
        do {
            return try openedStore(lookForDamage: mode != .readOnly)
        } catch CatalogueError.fileNotFound {
            return nil
        }
    }

    /// Opens it now, so that a catalogue that cannot be opened is said before anything else
    /// (a server, before it listens).
    public func open() throws { _ = try store() }

    /// `body` with a connection to read through: when threads share this catalogue, one of
    /// its read connections that no other thread reads through meanwhile, else the command's.
    /// Shared by threads (a server), it is refused when the catalogue's file is no longer the
    /// one opened, as a change is: each read connection holds the file that was there when that thread first read, so once the
    /// file was removed or another moved over it, pages showed the catalogue no longer there,
    /// or that one and the new one by turns, and offered forms that could not be saved.
    func reading<T>(_ body: (any CatalogueStore, StatsCache?) throws -> T) throws -> T {
        if let readers {
            try checkStillOpenedFile()
            return try readers.withReader { reader in try body(reader.store, reader.stats) }
        }
        return try body(try store(), nil)
    }

    /// `body` with the command's connection, one change at a time; refused, with nothing
    /// written, when the catalogue's file is no longer the one opened (see `CatalogueFileIdentity`).
    func changing<T>(_ body: (any CatalogueStore) throws -> T) throws -> T {
        changes.lock()
        defer { changes.unlock() }
        let store = try store()
        try checkStillOpenedFile()
        return try body(store)
    }

    /// Throws `catalogueMoved` when the catalogue's path no longer names the file opened
    /// (see `CatalogueFileIdentity`); one `stat`.
    private func checkStillOpenedFile() throws {
        opening.lock()
        let opened = openedFile
        opening.unlock()
        if let opened, CatalogueFileIdentity(of: location) != opened {
            throw WardrobeError.catalogueMoved(path: path)
        }
    }

    /// How many times this process opened the catalogue at `path`: once for each command.
    public static func openings(at path: String) -> Int { CatalogueStorage.openings(at: path) }

    /// Whether the catalogue is a database on a server (PostgreSQL), not a file: what is said of
    /// its pages, backups and freed space differs.
    public var isOnServer: Bool { CatalogueStorage.isServer(location) }

    /// The files that make up the catalogue, which no output may replace (none for a server's).
    public var files: [OutputFile.Input] { CatalogueLocation.files(of: location) }

    // MARK: - The model and the recipe

    /// Which model, by the rule (see `ModelChoice`): decided once, the first time it is asked.
    public func modelChoice(explicit: String?) throws -> ModelChoice {
        if let explicit, !explicit.isEmpty { return ModelChoice(source: .option, path: explicit) }
        choosing.lock()
        defer { choosing.unlock() }
        return try chosenModel()
    }

    private func chosenModel() throws -> ModelChoice {
        if let chosen { return chosen }
        let choice = try setup.modelChoice(explicit: nil) { try self.storeIfPresent() }
        chosen = choice
        return choice
    }

    /// Loads and prepares the chosen model: once per process.
    public func classifier(explicit: String?) throws -> ClothingClassifier {
        try setup.classifier(modelChoice(explicit: explicit))
    }

    /// The recipe rule for a command that does not load the model: the recipe named, else
    /// the chosen model's (only then is a model looked for), else `photo`.
    public func recipe(named name: String?, model explicit: String?) throws -> any PrepRecipe {
        if let name { return try setup.recipe(named: name) }
        if let explicit, !explicit.isEmpty { return try setup.recipe(named: nil, forModel: modelChoice(explicit: explicit)) }
        // The model's file is read for its recipe once, not for each page that shows a tensor.
        choosing.lock()
        defer { choosing.unlock() }
        if let chosenRecipe { return chosenRecipe }
        let recipe = try setup.recipe(named: nil, forModel: chosenModel())
        chosenRecipe = recipe
        return recipe
    }

    /// The recipe rule for a loaded model: the recipe named, else the model's, else `photo`.
    public func recipe(named name: String?, for model: ModelIdentity) throws -> any PrepRecipe {
        try setup.recipe(named: name, for: model)
    }

    /// The same for `model evaluate --recipe`: "all" gives every recipe, to compare them.
    public func recipes(named name: String?, for model: ModelIdentity) throws -> [any PrepRecipe] {
        try setup.recipes(named: name, for: model)
    }
}
