internal import Catalogue

/// `wardrobe forget`: removes images for good, the one operation that
/// deletes history. Every reference is resolved first; then all are removed
/// in one transaction, freed space is overwritten and the write-ahead log
/// emptied, so the thumbnails' bytes stay in neither file. Backups keep
/// what they hold.
public enum Forgetter {
    public struct Report: Sendable, Encodable {
        public var images: Int
        public var paths: Int
        public var classifications: Int
        /// A person's label acts removed.
        public var corrections: Int
        /// A person's colour acts removed (`wardrobe colour`), apart from the labels.
        public var colourCorrections: Int
        /// False when another process reading the catalogue kept the log
        /// from being emptied: the bytes leave the `-wal` once it is done.
        public var logEmptied: Bool
        /// What a server keeps of the removed rows until its own cleaning, and how to
        /// hasten it (PostgreSQL: VACUUM); nil for an SQLite file, which overwrites them.
        public var serverNote: String?

        enum CodingKeys: String, CodingKey {
            case images, paths, classifications, corrections, colourCorrections = "colour_corrections"
            case logEmptied = "log_emptied", serverNote = "server_note"
        }
    }

    /// The images a list of references names, each once, and an error for each reference that
    /// names none, saying where it was read when that is known (`standard input line 3: ...`).
    public struct Found: Sendable {
        public var images: [ImageSummary]
        public var unnamed: [WardrobeError]
    }

    /// The images the references name, resolved (to show before asking). A reference that names
    /// no image (none there, a hash prefix several share, a folder, a file that holds another
    /// photo now) is an error of its own, and the others are still found: forget of a list
    /// with one stale id in it forgot nothing. A folder's error gives the pipe that forgets
    /// the images imported from it.
    static func resolve(_ references: [ImageReference], places: [String?], in catalogue: any CatalogueStore) throws -> Found {
        var seen = Set<ImageID>()
        var images: [ImageSummary] = []
        var unnamed: [WardrobeError] = []
        for (index, reference) in references.enumerated() {
            let place = index < places.count ? places[index].map { "\($0): " } ?? "" : ""
            do {
                let image = try reference.resolve(in: catalogue)
                guard seen.insert(image.id).inserted else { continue }
                images.append(ImageSummary(id: image.id.rawValue, sha256: image.sha256.hex,
                                           path: try catalogue.paths(of: image.id).first?.path))
            } catch let error as WardrobeError {
                if case .path(let path) = reference, let pipe = Labeller.pipe(forFolder: path, command: "forget --yes") {
                    unnamed.append(.invalidArgument("\(place)\(path) is a folder, not an image; to forget the images "
                        + "imported from it: \(pipe)"))
                    continue
                }
                switch error {
                case .notFound, .invalidArgument: unnamed.append(.invalidArgument(place + error.description))
                default: throw error
                }
            }
        }
        return Found(images: images, unnamed: unnamed)
    }

    static func forget(_ images: [ImageSummary], in catalogue: any CatalogueStore) throws -> Report {
        let report = try catalogue.forget(images.map { ImageID($0.id) })
        return Report(images: report.images, paths: report.paths, classifications: report.classifications,
                      corrections: report.corrections, colourCorrections: report.colourCorrections,
                      logEmptied: report.logEmptied, serverNote: report.serverNote)
    }

    /// An image as a person recognises it before it goes.
    public struct ImageSummary: Sendable, Encodable {
        public var id: Int64
        public var sha256: String
        public var path: String?
    }
}
