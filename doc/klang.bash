# bash completion for klang(1): subcommands, their options (read from
# `klang CMD --help`, so they follow the binary), arches, toolchains, theme
# names, formats and git refs. Installed by `make install` into
# share/bash-completion/completions/klang; or source it from ~/.bashrc.
# Standalone: it needs neither the bash-completion package nor a klang on PATH.

_klang_commands="stack series clang-version build diag demo"

# Options that take a value.
_klang_valued="--repo --patchset --theme --base --head --mbox --quilt --tag --format --clang
--cc --override --apply --export --as --arch --toolchain --config --fragment --jobs --out
--wrapper --target --records --rules --play --speed"

_klang_arches="arm64 x86_64 arm riscv powerpc mips s390 loongarch i386 x86 um
hexagon sparc m68k arc csky microblaze nios2 openrisc parisc sh xtensa alpha"

_klang_static_opts() {
	case $1 in
	'') echo "--repo --patchset --theme --base --head --mbox --quilt --dump-config --dump-keys --help --version" ;;
	stack) echo "--repo --base --head --mbox --quilt --tag --format --help" ;;
	series) echo "--patchset --repo --base --head --mbox --quilt --clang --cc --format --override --apply --force --export --as --help" ;;
	clang-version) echo "--cc --all --format --help" ;;
	build) echo "--repo --arch --toolchain --config --fragment --jobs --out --wrapper --target --records --help" ;;
	diag) echo "parse diff --help" ;;
	diag-parse) echo "--format --help" ;;
	diag-diff) echo "--gcc --clang --rules --format --help" ;;
	demo) echo "--no-tui --theme --play --speed --help" ;;
	esac
}

# The options a subcommand's --help lists, cached per command.
declare -gA _klang_opt_cache 2>/dev/null || true
_klang_opts() {
	local key=${1:-main} help
	if [[ -z ${_klang_opt_cache[$key]-} ]]; then
		if [[ $1 == diag* ]] || ! help=$("$_klang_bin" $1 --help 2>/dev/null); then
			_klang_opt_cache[$key]=$(_klang_static_opts "$1")
		else
			# options start a line or sit in the usage's [ ( |, not in prose
			_klang_opt_cache[$key]=$( {
				_klang_static_opts "$1" | tr ' ' '\n'
				printf '%s\n' "$help" | grep -oE '(^ *|[[(|] ?)--[a-z][a-z-]*[a-z]' |
					grep -oE -- '--[a-z-]+'
			} | sort -u | tr '\n' ' ')
		fi
	fi
	echo "${_klang_opt_cache[$key]}"
}

_klang_datadirs() {
	local bindir
	bindir=$(dirname -- "$(type -P -- "$_klang_bin" 2>/dev/null || echo "$_klang_bin")")
	printf '%s\n' "${KLANG_DATADIR-}" "$bindir" "$bindir/../share/klang" \
		/usr/local/share/klang /usr/share/klang
}

# The names of the YAML files in a data subdirectory (themes, patchsets).
_klang_data_names() {
	local d f
	while read -r d; do
		[[ -n $d && -d $d/$1 ]] || continue
		for f in "$d/$1"/*.yaml; do
			[[ -e $f ]] && f=${f##*/} && echo "${f%.yaml}"
		done
		return
	done < <(_klang_datadirs)
}

_klang_toolchains() {
	local c
	echo llvm clang gcc
	for c in $(compgen -c clang- 2>/dev/null | grep -E '^clang-[0-9]+$' | sort -u); do
		echo "llvm-${c#clang-} $c"
	done
	compgen -c gcc- 2>/dev/null | grep -E '^gcc-[0-9]+$' | sort -u
}

_klang_refs() {
	local repo=. i
	for ((i = 1; i < COMP_CWORD; i++)); do
		[[ ${COMP_WORDS[i]} == --repo ]] && repo=${COMP_WORDS[i + 1]}
	done
	echo HEAD
	git -C "$repo" for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null
}

# Complete the last item of a comma-separated list.
_klang_list() {
	local cur=$1 words=$2 prefix=
	[[ $cur == *,* ]] && prefix=${cur%,*}, && cur=${cur##*,}
	COMPREPLY=($(compgen -P "$prefix" -W "$words" -- "$cur"))
	[[ ${#COMPREPLY[@]} -eq 1 ]] && type compopt &>/dev/null && compopt -o nospace
}

_klang() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local _klang_bin=${COMP_WORDS[0]} cmd= sub= i w
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ " $_klang_valued " == *" $w "* ]]; then
			((i++)) # the option's value is not a command
		elif [[ -z $cmd && " $_klang_commands " == *" $w "* ]]; then
			cmd=$w
		elif [[ $cmd == diag && -z $sub && $w =~ ^(parse|diff)$ ]]; then
			sub=$w
		fi
	done

	case $prev in
	--repo | --out | --records | --quilt | --export)
		COMPREPLY=($(compgen -d -- "$cur")); return ;;
	--mbox | --fragment | --rules | --gcc | --clang)
		if [[ $prev == --clang && $cmd == series ]]; then
			COMPREPLY=($(compgen -W "11 12 13 14 15 16 17 18 19" -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return ;;
	--base | --head | --apply)
		COMPREPLY=($(compgen -W "$(_klang_refs)" -- "$cur")); return ;;
	--theme)
		COMPREPLY=($(compgen -W "$(_klang_data_names themes)" -- "$cur")); return ;;
	--patchset)
		COMPREPLY=($(compgen -W "$(_klang_data_names patchsets)" -- "$cur") $(compgen -f -X '!*.yaml' -- "$cur")); return ;;
	--arch)
		_klang_list "$cur" "$_klang_arches"; return ;;
	--toolchain)
		_klang_list "$cur" "$(_klang_toolchains)"; return ;;
	--tag)
		_klang_list "$cur" "UPSTREAM BACKPORT FROMGIT FROMLIST HACK CUSTOM OBSOLETE CHROMIUM ANDROID none"; return ;;
	--format)
		local f="text tsv json"
		[[ $cmd == clang-version ]] && f="text json"
		[[ $sub == parse ]] && f="text json quickfix"
		[[ $sub == diff ]] && f="text tsv json quickfix sarif"
		COMPREPLY=($(compgen -W "$f" -- "$cur")); return ;;
	--as)
		COMPREPLY=($(compgen -W "mbox quilt" -- "$cur")); return ;;
	--wrapper)
		COMPREPLY=($(compgen -W "ccache distcc icecc none" -- "$cur")); return ;;
	--config)
		COMPREPLY=($(compgen -W "defconfig allmodconfig allyesconfig allnoconfig tinyconfig olddefconfig" -- "$cur") $(compgen -f -- "$cur")); return ;;
	--cc)
		COMPREPLY=($(compgen -c -- "$cur")); return ;;
	--play)
		COMPREPLY=($(compgen -W "tour.keys" -- "$cur") $(compgen -f -- "$cur")); return ;;
	--jobs | --target | --override | --speed)
		return ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "$(_klang_opts '')" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$_klang_commands help" -- "$cur"))
		fi
	elif [[ $cmd == diag && -z $sub ]]; then
		COMPREPLY=($(compgen -W "parse diff --help" -- "$cur"))
	elif [[ $cmd == diag ]]; then
		COMPREPLY=($(compgen -W "$(_klang_opts diag-$sub)" -- "$cur"))
		[[ $cur != -* ]] && COMPREPLY+=($(compgen -f -- "$cur"))
	elif [[ $cmd == demo && $cur != -* ]]; then
		COMPREPLY=($(compgen -d -- "$cur"))
	else
		COMPREPLY=($(compgen -W "$(_klang_opts "$cmd")" -- "$cur"))
	fi
}

complete -F _klang klang
