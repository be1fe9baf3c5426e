import Files
internal import Catalogue
import Foundation

/// `wardrobe label`: a person's label for images, named as `show` names
/// them. Every image is resolved before anything is written, and all are
/// labelled in one transaction: a wrong reference changes nothing.
///
/// `Labels/` owns what a person decides about stored images: labels for them, the words
/// that name a label (`LabelMatcher`), and forgetting them for good (`Forgetter`).
public struct Labeller {
    /// What the person says of the images.
    public enum Act: Sendable, Equatable {
        /// This label (0...9, or `Catalogue.noneLabel` for none of the ten).
        case label(Int)
        /// The model's current label is right.
        case confirm
        /// Take the person's label back.
        case clear
    }

    /// One image's labels before and after.
    public struct Change: Sendable, Encodable {
        public var image: Int64
        public var path: String?
        /// The effective label before and after (nil: never classified, no person label).
        public var before: String?
        public var after: String?
        /// The model's current label, shown beside a person's.
        public var model: String?

        enum CodingKeys: String, CodingKey { case image, path, before, after, model }
    }

    let catalogue: any CatalogueStore
    /// The command recorded with every act.
    let command: String

    init(catalogue: any CatalogueStore, command: String = "label") {
        self.catalogue = catalogue
        self.command = command
    }

    /// `places`, when given, says where each reference was read (`standard input line 3`), for
    /// the error of one that names no image: in a list of thousands the word alone may not say.
    public func apply(_ act: Act, to references: [ImageReference], places: [String?] = []) throws -> [Change] {
        let images = try Self.resolve(references, places: places, in: catalogue, verb: "label") { path in
            Self.pipe(forFolder: path, act: act)
        }
        return try record(act, on: images).map { outcome in
            Change(image: outcome.image.rawValue, path: try catalogue.paths(of: outcome.image).first?.path,
                   before: outcome.effectiveBefore.map(LabelMatcher.name(of:)),
                   after: outcome.effectiveAfter.map(LabelMatcher.name(of:)),
                   model: outcome.modelLabel.map(LabelMatcher.name(of:)))
        }
    }

    /// `act` on each of `images`, by id only, in one transaction: each image's labels before
    /// and after, read in that transaction. An image that is not there (forgotten by another
    /// process since it was found) is not found, and nothing is changed.
    func record(_ act: Act, on images: [ImageID]) throws -> [CorrectionOutcome] {
        let request: CorrectionRequest = switch act {
        case .label(let label): .label(label)
        case .confirm: .confirm
        case .clear: .clear
        }
        return try catalogue.correct(images, request, command: command)
    }

    /// The images `references` name, each once, in the order first named; every one is
    /// found before anything is written. A path that is a folder is refused with the command
    /// line `pipe` gives for it (to `verb` the images imported from it); `places`, when
    /// given, says where each reference was read, for the error of one that names no image.
    static func resolve(_ references: [ImageReference], places: [String?], in catalogue: any CatalogueStore,
                        verb: String, pipe: (String) -> String?) throws -> [ImageID] {
        // Every line read that names no image is named, not only the first: a list of thousands
        // with three typos was refused three times over, a line at a time.
        var unnamed: [WardrobeError] = []
        let images = try references.enumerated().compactMap { index, reference in
            do {
                return try reference.resolve(in: catalogue)
            } catch let error as WardrobeError {
                if case .path(let path) = reference, let pipe = pipe(path) {
                    throw WardrobeError.invalidArgument("\(path) is a folder, not an image; to \(verb) the images "
                        + "imported from it: \(pipe)")
                }
                guard index < places.count, let place = places[index] else { throw error }
                switch error {
                case .notFound, .invalidArgument: unnamed.append(.invalidArgument("\(place): \(error)"))
                default: throw error
                }
                return nil
            }
        }
        if let error = WardrobeError.all(unnamed) { throw error }
        var seen = Set<ImageID>()
        return images.map(\.id).filter { seen.insert($0).inserted }
    }

    /// For a path that is a folder, the command line that does to the images imported from
    /// it what `act` does to one: `wardrobe list --path '/photos/coats/' --ids | wardrobe label coat -`.
    static func pipe(forFolder path: String, act: Act) -> String? {
        let label = switch act {
        case .label(let label): LabelMatcher.name(of: label).lowercased().replacingOccurrences(of: " ", with: "-")
        case .confirm: "--confirm"
        case .clear: "--clear"
        }
        return pipe(forFolder: path, command: "label \(label)")
    }

    /// For a path that is a folder, `wardrobe list --path 'FOLDER/' --ids | wardrobe COMMAND -`.
    static func pipe(forFolder path: String, command: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        var folder = URL(fileURLWithPath: path).standardizedFileURL.path
        if !folder.hasSuffix("/") { folder += "/" }
        let quoted = "'" + folder.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return "wardrobe list --path \(quoted) --ids | wardrobe \(command) -"
    }

    /// Image references read one a line (`label -`): blank lines are
    /// skipped, and so is the header of `list --csv`, whose rows give their
    /// id as the first field; `list --ids` gives one id a line. Lines are
    /// split as bytes, so a path that is not UTF-8 keeps its exact bytes (as
    /// it does as an argument); a CR before the LF and a UTF-8 byte-order
    /// mark at the start (a list saved on Windows) are dropped.
    /// Each with the number of its line (from 1), which an error names: `line 3: '1\x00' is not
    /// an image id, ...`; the word alone did not say where in a long list it was.
    public static func references(lines input: some Collection<UInt8>) throws(WardrobeError)
        -> [(reference: ImageReference, line: Int)] {
        let read = readReferences(lines: input)
        if let error = WardrobeError.all(read.unreadable) { throw error }
        return read.references
    }

    /// The references `references(lines:)` reads, and an error for each line that names no image
    /// in any way (`line 3: ...`), for a command that goes on without those (`forget -`).
    public static func readReferences(lines input: some Collection<UInt8>)
        -> (references: [(reference: ImageReference, line: Int)], unreadable: [WardrobeError]) {
        var bytes = Array(input)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var references: [(reference: ImageReference, line: Int)] = []
        var unreadable: [WardrobeError] = []
        for (index, var line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if line.last == 0x0D { line = line.dropLast() }
            let word = PathName.decode(line).trimmingCharacters(in: .whitespaces)
            if word.isEmpty || word.hasPrefix("id,") { continue }
            let text = Self.listedID(word) ?? word
            do {
                references.append((try ImageReference(text), index + 1))
            } catch {
                unreadable.append(.invalidArgument("line \(index + 1): \(error)"))
            }
        }
        return (references, unreadable)
    }
}

extension Labeller {
    /// The id at the start of a row of `list --csv` (`12,3fa9...,Coat,...`: an id, then the
    /// image's whole SHA-256), or nil for any other line. Digits and a comma alone were taken
    /// for such a row, so a file named `12,coat.jpg` in the folder a list was made in
    /// labelled image 12.
    static func listedID(_ line: String) -> String? {
        let fields = line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, !fields[0].isEmpty, fields[0].allSatisfy(\.isASCIIDigit),
              fields[1].count == 64, fields[1].allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return String(fields[0])
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
