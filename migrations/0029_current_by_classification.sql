-- Both engines
-- Deleting a classification (`forget`) makes the engine look for current_classifications
-- rows that still refer to it (the foreign key), and with no index leading with
-- classification_id each look read the whole table: forgetting 451 images took 0.15 s in a
-- catalogue of 1,000 and 1.34 s in one of 100,000, and 10,000 of 100,000 took 30 s with the
-- write lock held, so an import or a label beside it gave up waiting. Every other foreign key
-- to a table rows are deleted from (images, classifications) has an index leading with it.
CREATE INDEX current_by_classification ON current_classifications(classification_id);
