internal import Catalogue
import Foundation

/// `wardrobe failures`: every file whose latest import failed, once however
/// often it was tried, with the reason. An unchanged one is passed over by
/// the next import; a changed one is read again.
public enum FailureListing {
    public struct Row: Sendable, Encodable {
        public var path: String
        public var reason: String
        public var attempts: Int
        @ISO8601Encoded public var lastFailed: Date

        enum CodingKeys: String, CodingKey { case path, reason, attempts, lastFailed = "last_failed" }
    }

    /// Every machine's failing files: another machine's path written `machine:path`, as
    /// `list` writes its paths.
    static func rows(in catalogue: any CatalogueStore) throws -> [Row] {
        try catalogue.failingFiles().map {
            Row(path: Machine.shown($0.path, on: $0.machine, from: catalogue.machine), reason: $0.reason,
                attempts: $0.attempts, lastFailed: $0.lastFailed)
        }
    }
}
