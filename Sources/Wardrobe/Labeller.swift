import Files
import Catalogue
import Foundation

/// `wardrobe label`: a person's label for images, named as `show` names
/// them. Every image is resolved before anything is written, and all are
/// labelled in one transaction: a wrong reference changes nothing.
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

    let catalogue: Catalogue
    /// The command recorded with every act.
    let command: String

    public init(catalogue: Catalogue, command: String = "label") {
        self.catalogue = catalogue
        self.command = command
    }

    public func apply(_ act: Act, to references: [ImageReference]) throws -> [Change] {
        let images = try references.map { try $0.resolve(in: catalogue) }
        let request: CorrectionRequest = switch act {
        case .label(let label): .label(label)
        case .confirm: .confirm
        case .clear: .clear
        }
        var seen = Set<ImageID>()
        let unique = images.map(\.id).filter { seen.insert($0).inserted }
        let outcomes = try catalogue.correct(unique, request, command: command)
        return try outcomes.map { outcome in
            Change(image: outcome.image.rawValue, path: try catalogue.paths(of: outcome.image).first?.path,
                   before: outcome.effectiveBefore.map(LabelMatcher.name(of:)),
                   after: outcome.effectiveAfter.map(LabelMatcher.name(of:)),
                   model: outcome.modelLabel.map(LabelMatcher.name(of:)))
        }
    }

    /// Image references read one a line (`label -`): blank lines are
    /// skipped, and so is the header of `list --csv`, whose rows give their
    /// id as the first field; `list --ids` gives one id a line. Lines are
    /// split as bytes, so a path that is not UTF-8 keeps its exact bytes (as
    /// it does as an argument); a CR before the LF and a UTF-8 byte-order
    /// mark at the start (a list saved on Windows) are dropped.
    public static func references(lines input: some Collection<UInt8>) throws(WardrobeError) -> [ImageReference] {
        var bytes = Array(input)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var references: [ImageReference] = []
        for var line in bytes.split(separator: 0x0A) {
            if line.last == 0x0D { line = line.dropLast() }
            let word = PathName.decode(line).trimmingCharacters(in: .whitespaces)
            if word.isEmpty || word.hasPrefix("id,") { continue }
            if let comma = word.firstIndex(of: ","), word[..<comma].allSatisfy(\.isASCIIDigit) {
                references.append(try ImageReference(String(word[..<comma])))
            } else {
                references.append(try ImageReference(word))
            }
        }
        return references
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
