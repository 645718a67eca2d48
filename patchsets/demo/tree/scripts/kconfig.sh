# SPDX-License-Identifier: GPL-2.0
# A stand-in for Kconfig: "write OUT FRAGMENT..." merges config fragments
# into OUT (later fragments win), "check OUT" keeps an existing .config.
set -e
cmd=$1
out=$2
shift 2
case $cmd in
write)
	tmp=$out.tmp
	: > "$tmp"
	for f in "$@"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				sym=${line%%=*}
				grep -v "^$sym=" "$tmp" > "$tmp.1" || true
				mv "$tmp.1" "$tmp"
				;;
			esac
			echo "$line" >> "$tmp"
		done < "$f"
	done
	{
		echo '#'
		echo '# Automatically generated file; DO NOT EDIT.'
		echo "# Linux/$ARCH $KERNELVERSION Kernel Configuration"
		echo '#'
		echo "CONFIG_CC_VERSION_TEXT=\"$CC_VERSION_TEXT\""
		grep '^CONFIG_' "$tmp" | grep -v '^CONFIG_CC_VERSION_TEXT='
	} > "$out"
	rm -f "$tmp"
	echo '#'
	echo "# configuration written to $out"
	echo '#'
	;;
check)
	if [ ! -f "$out" ]; then
		echo "***" >&2
		echo "*** Configuration file \"$out\" not found!" >&2
		echo "***" >&2
		exit 1
	fi
	echo '#'
	echo "# No change to configuration in '$out'"
	echo '#'
	;;
esac
