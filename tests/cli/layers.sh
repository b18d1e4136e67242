#!/usr/bin/env bash
# The floors of docs/architecture.md ("Layers"), checked on every #include:
# a file may include files of its own floor or lower ones, never higher; a
# core file includes no SystemC header. The CMake libraries enforce the same
# at link time (each links only the floors below it); this catches what the
# linker cannot see (a header-only dependency).
#
#   0 core       include/tlmgpu/*.hpp, include/tlmgpu/simt/, src/framework/,
#                models/*/ files that are not *_module.* (outside models/gpu/)
#   1 framework  include/tlmgpu/sim/, src/sim/
#   2 models     models/*/*_module.*, models/*/*_blocks.* (factories), models/gpu/
#   3 workloads  workloads/
#   4 app        include/tlmgpu/app/, src/app/, src/sweep/, src/cli/
#
# usage: bash tests/cli/layers.sh <path-to-tlmgpu (unused)> <source-dir>
set -u
root=$2
cd "$root" || exit 2
names=(core framework models workloads app)

floor_of() { # path relative to the root -> floor number, or -1 (not layered)
  case $1 in
  */tests/* | tests/*) echo -1 ;;
  include/tlmgpu/sim/* | src/sim/*) echo 1 ;;
  include/tlmgpu/app/* | src/app/* | src/sweep/* | src/cli/*) echo 4 ;;
  include/tlmgpu/* | src/framework/*) echo 0 ;;
  models/gpu/* | models/*_module.* | models/*_blocks.*) echo 2 ;;
  models/*) echo 0 ;;
  workloads/*) echo 3 ;;
  *) echo -1 ;;
  esac
}

bad=0
checked=0
while IFS= read -r file; do
  from=$(floor_of "$file")
  ((from < 0)) && continue
  dir=$(dirname "$file")
  while IFS= read -r line; do
    inc=${line#*\"}
    inc=${inc%%\"*}
    target=""
    for cand in "$dir/$inc" "include/$inc" "$inc"; do
      if [[ -f $cand ]]; then
        target=$(realpath --relative-to=. "$cand")
        break
      fi
    done
    [[ -z $target ]] && continue # a system or generated header
    to=$(floor_of "$target")
    checked=$((checked + 1))
    if ((to > from)); then
      echo "layers: $file (${names[from]}) includes $target (${names[to]}), a higher floor"
      bad=$((bad + 1))
    fi
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file")
  if ((from == 0)) &&
    grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(systemc|tlm|sysc/|tlm_core/|tlm_utils/)' "$file"; then
    echo "layers: $file (core) includes a SystemC header; core is kernel-free"
    bad=$((bad + 1))
  fi
done < <(find include src models workloads -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.h' \) | sort)

echo "layers: $checked includes checked, $bad going up"

# A block reads only its own spec (handed by its factory) and SimContext::net;
# only the builder's side reads the platform: factories (*_blocks.cpp) and
# the GPU that composes blocks (models/gpu/).
reads=0
while IFS= read -r hit; do
  echo "layers: $hit reads the platform (hand the module its spec or use ctx.net)"
  reads=$((reads + 1))
done < <(grep -nE '\bplatform\.[a-z_]+' -r models --include='*.cpp' --include='*.hpp' |
  grep -vE '^models/gpu/|^models/[^:]*_blocks\.cpp:|^models/[^:]*/tests/|^[^:]*:[0-9]+:[[:space:]]*//')
echo "layers: $reads platform reads in block modules"
((bad == 0 && reads == 0))
