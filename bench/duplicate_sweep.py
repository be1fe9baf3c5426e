"""Sweeps `wardrobe duplicates`' rule over a pair set, as docs/duplicates.md says it was chosen.

    python3 bench/duplicate_sweep.py --set /tmp/dup/train --db /tmp/dup/train.sqlite [--check /tmp/dup/validation /tmp/dup/validation.sqlite]

The set is what `imaging-tools duplicate-set` wrote (sources.tsv names each file's source photo)
and the catalogue is `wardrobe import` of its photos, whose fingerprints and colours are read
as `duplicates` reads them. Every pair within crop distance LIMIT is scored by the rule for
each distance and CIELAB guard; a group is every file reached through accepted pairs, and
precision and recall count the pairs inside groups (as `imaging-tools duplicate-score` does).
Prints, for each guard, the distances whose groups keep precision at --precision, and the rule
with the largest recall among them; --check scores that rule, once, on another set.
"""
import argparse, csv, os, sqlite3
import numpy as np

pc = np.bitwise_count


def hashes(blob, count=10):
    return np.frombuffer(blob, '<u8') if blob is not None else np.zeros(count, np.uint64)


def load(setdir, db, windows):
    sources = {}
    with open(os.path.join(setdir, 'sources.tsv')) as f:
        for row in csv.reader(f, delimiter='\t'):
            if not row[0].startswith('#'):
                sources[row[0]] = row[1]
    rows = sqlite3.connect(db).execute("""
        SELECT i.fingerprint, i.garment_fingerprint, i.crop_fingerprints, i.garment_crop_fingerprints, i.colours,
               (SELECT path FROM image_paths p WHERE p.image_id = i.id ORDER BY path LIMIT 1)
        FROM images i WHERE i.fingerprint IS NOT NULL ORDER BY i.id""").fetchall()
    n = len(rows)
    f = dict(whole=np.zeros(n, np.uint64), garment=np.zeros(n, np.uint64), hasg=np.zeros(n, bool),
             crops=np.zeros((n, 10), np.uint64), gcrops=np.zeros((n, 10), np.uint64), lab=np.full((n, 3), np.nan))
    source = []
    for k, (whole, garment, crops, gcrops, colours, path) in enumerate(rows):
        f['whole'][k] = np.uint64(whole & 0xFFFFFFFFFFFFFFFF)
        if garment is not None:
            f['garment'][k] = np.uint64(garment & 0xFFFFFFFFFFFFFFFF)
            f['hasg'][k] = True
        f['crops'][k] = hashes(crops)
        f['gcrops'][k] = hashes(gcrops) if gcrops is not None else f['garment'][k]
        if colours:
            f['lab'][k] = [float(x) for x in colours.split(';')[0].split()[2:5]]
        source.append(sources[os.path.basename(path)])
    f['gcrops'] = f['gcrops'][:, windows]
    _, f['source'], counts = np.unique(np.array(source), return_inverse=True, return_counts=True)
    f['truepairs'] = int((counts * (counts - 1) // 2).sum())
    return f


def pairs(f, limit):
    whole, crops, n = f['whole'], f['crops'], len(f['whole'])
    I, J, C = [], [], []
    for s in range(0, n, 256):
        e = min(n, s + 256)
        a = whole[s:e, None]
        best = pc(a ^ whole[None, :])
        best = np.minimum(best, pc(a[:, :, None] ^ crops[None, :, :]).min(axis=2))
        best = np.minimum(best, pc(crops[s:e, None, :] ^ whole[None, :, None]).min(axis=2))
        i, j = np.nonzero(best <= limit)
        keep = i + s < j
        I.append(i[keep] + s); J.append(j[keep]); C.append(best[i[keep], j[keep]])
    I, J, C = np.concatenate(I), np.concatenate(J), np.concatenate(C).astype(int)
    g, gc = f['garment'], f['gcrops']
    garment = np.minimum(pc(g[I] ^ g[J]), np.minimum(pc(g[I][:, None] ^ gc[J]).min(1), pc(gc[I] ^ g[J][:, None]).min(1)))
    lab = np.sqrt(((f['lab'][I] - f['lab'][J]) ** 2).sum(1))
    return dict(I=I, J=J, crop=C, garment=garment.astype(int), hasg=f['hasg'][I] & f['hasg'][J],
                lab=np.where(np.isnan(lab), 0, lab))


def accepted(p, distance, colour, near=2, limit=6):
    c = p['crop']
    d = np.where(p['hasg'], (3 * c + 2 * p['garment']) // 2, 5 * c // 2)
    return ((c <= near) | ((c <= limit) & (d <= distance))) & (p['lab'] <= colour)


def score(f, p, accept):
    parent = np.arange(len(f['whole']))

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for i, j in zip(p['I'][accept], p['J'][accept]):
        a, b = root(i), root(j)
        if a != b:
            parent[max(a, b)] = min(a, b)
    roots = np.array([root(x) for x in range(len(parent))], np.int64)
    _, sizes = np.unique(roots, return_counts=True)
    _, same = np.unique(roots * (f['source'].max() + 1) + f['source'], return_counts=True)
    inside, true = int((sizes * (sizes - 1) // 2).sum()), int((same * (same - 1) // 2).sum())
    return (true / inside if inside else 1.0), true / f['truepairs'], int(sizes.max())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--set', required=True)
    parser.add_argument('--db', required=True)
    parser.add_argument('--check', nargs=2, metavar=('SET', 'DB'))
    parser.add_argument('--precision', type=float, default=0.98)
    parser.add_argument('--garment-windows', default='0-9', help='which garment crops to use (0-3: one side only)')
    args = parser.parse_args()
    low, high = (int(x) for x in args.garment_windows.split('-'))
    windows = list(range(low, high + 1))
    f = load(args.set, args.db, windows)
    p = pairs(f, 6)
    best = None
    print('colour\tdistance\tprecision\trecall\tlargest group')
    for colour in range(15, 50, 5):
        for distance in range(8, 21):
            precision, recall, largest = score(f, p, accepted(p, distance, colour))
            if precision >= args.precision:
                print(f'{colour}\t{distance}\t{precision:.4f}\t{recall:.4f}\t{largest}')
                if best is None or recall > best[0]:
                    best = (recall, precision, colour, distance)
    recall, precision, colour, distance = best
    print(f'chosen: distance {distance}, CIELAB {colour}: precision {precision:.4f}, recall {recall:.4f}')
    if args.check:
        g = load(args.check[0], args.check[1], windows)
        q = pairs(g, 6)
        precision, recall, largest = score(g, q, accepted(q, distance, colour))
        print(f'on {args.check[0]}: precision {precision:.4f}, recall {recall:.4f}, largest group {largest}')


if __name__ == '__main__':
    main()
