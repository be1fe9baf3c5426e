import Synchronization
import Wardrobe

/// The acts of a person this server can undo: each act a page made (one image's label, or one
/// label for the images picked in the gallery) is kept here with what it did to every image's
/// person label, under a random id that the page after the act carries (`undo=ID`). A page
/// shows "Saved" and an Undo button only for an id found here, and Undo puts back only what
/// the record says, once. The undo state was the URL's own (`?undo=1:Bag,2:Bag` or
/// `?undo=5&was=Sandal`): any link, from any site, planted a working Undo form with a
/// stranger's images and labels, one key press (u) from being recorded as the person's.
///
/// Kept in memory, for this process: the oldest acts go once `capacity` are kept, and a
/// restart forgets them all (their pages then offer no undo).
final class UndoLedger: Sendable {
    /// What one act did: each image once, with its person label before and after.
    typealias Act = [PersonLabelChange]

    private struct Records {
        var acts: [String: Act] = [:]
        /// Ids, oldest first.
        var order: [String] = []
    }

    private let records = Mutex(Records())
    let capacity: Int

    init(capacity: Int = 500) {
        precondition(capacity > 0, "a ledger keeps at least one act")
        self.capacity = capacity
    }

    /// Keeps `act`; the id that names it, 128 random bits as hex.
    func record(_ act: Act) -> String {
        let id = RequestGuard.randomToken(bytes: 16)
        records.withLock { keep(act, as: id, in: &$0) }
        return id
    }

    /// The act `id` names, when this server recorded it and it is not undone yet.
    func act(_ id: String) -> Act? {
        records.withLock { $0.acts[id] }
    }

    /// Takes the act `id` names out, to undo it: a second Undo of the same act finds nothing.
    func take(_ id: String) -> Act? {
        records.withLock { records in
            guard let act = records.acts.removeValue(forKey: id) else { return nil }
            records.order.removeAll { $0 == id }
            return act
        }
    }

    /// Keeps again an act taken out whose undoing failed (the catalogue was busy), as the newest.
    func putBack(_ id: String, _ act: Act) {
        records.withLock { records in
            if records.acts[id] == nil { keep(act, as: id, in: &records) }
        }
    }

    /// `act` as the newest, the oldest let go while more than `capacity` are kept.
    private func keep(_ act: Act, as id: String, in records: inout Records) {
        records.acts[id] = act
        records.order.append(id)
        while records.order.count > capacity {
            records.acts[records.order.removeFirst()] = nil
        }
    }
}
