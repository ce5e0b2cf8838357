# Prints, per weight of a `sensitivity` run folder, the effects whose 95 % interval excludes 0.
import csv, sys
# usage: styletable.py DIR...   prints per unit the clear effects (95 % interval excludes 0)
for d in sys.argv[1:]:
    rows = list(csv.DictReader(open(d + '/sensitivity_effects.csv')))
    units = []
    for r in rows:
        if r['unit'] not in units: units.append(r['unit'])
    print(f'\n`{d}`\n\n| unit | clear effects, high − low (cells; win rate in points) |\n|---|---|')
    for u in units:
        parts = []
        for r in rows:
            if r['unit'] != u: continue
            lo, hi = float(r['effect_lo']), float(r['effect_hi'])
            if lo <= 0 <= hi: continue
            if r['effect_cells']:
                parts.append(f"{r['measure']} {float(r['effect_cells']):+.1f} [{float(r['effect_cells_lo']):+.1f}, {float(r['effect_cells_hi']):+.1f}]")
            else:
                parts.append(f"win {100*float(r['effect']):+.0f} [{100*lo:+.0f}, {100*hi:+.0f}]")
        print(f"| {u} | {'; '.join(parts) if parts else '—'} |")
