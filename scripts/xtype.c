/* xtype: sends keystrokes to the focused X window through the XTest
 * extension (what xdotool type does), for scripts/smoke.sh and
 * scripts/screenshots.sh. Printable ASCII only (every character: an ASCII
 * character's keysym is its code).
 *   xtype TEXT            types TEXT
 *   xtype --key NAME      presses one key by keysym name (Tab, Return, Down),
 *                         with modifiers: ctrl+a, ctrl+Return, shift+Tab
 *   xtype --click X Y     clicks the left button at X,Y (screen coordinates)
 *   xtype --move X Y      moves the pointer to X,Y (no click: the window under it takes the keys)
 *   xtype --wheel X Y N   turns the mouse wheel N steps down at X,Y (up when N < 0)
 *   xtype --resize WIN W H  resizes window WIN (an id as xwininfo prints it) to WxH
 * Build: cc -O2 -o xtype scripts/xtype.c -lX11 -lXtst */
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void press_mods(Display *d, KeySym sym, const KeySym *mods, int nmods) {
	KeyCode code = XKeysymToKeycode(d, sym);
	if (code == 0) return;
	for (int i = 0; i < nmods; i++) XTestFakeKeyEvent(d, XKeysymToKeycode(d, mods[i]), True, 0);
	int shift = 0;
	if (XkbKeycodeToKeysym(d, code, 0, 0) != sym && XkbKeycodeToKeysym(d, code, 0, 1) == sym) shift = 1;
	KeyCode sh = XKeysymToKeycode(d, XK_Shift_L);
	if (shift) XTestFakeKeyEvent(d, sh, True, 0);
	XTestFakeKeyEvent(d, code, True, 0);
	XTestFakeKeyEvent(d, code, False, 0);
	if (shift) XTestFakeKeyEvent(d, sh, False, 0);
	for (int i = nmods - 1; i >= 0; i--) XTestFakeKeyEvent(d, XKeysymToKeycode(d, mods[i]), False, 0);
	XFlush(d);
	usleep(30000);
}

static void press(Display *d, KeySym sym) { press_mods(d, sym, NULL, 0); }

int main(int argc, char **argv) {
	Display *d = XOpenDisplay(NULL);
	if (!d) { fprintf(stderr, "xtype: cannot open display\n"); return 1; }
	if (argc == 4 && strcmp(argv[1], "--click") == 0) {
		XTestFakeMotionEvent(d, -1, atoi(argv[2]), atoi(argv[3]), 0);
		XFlush(d);
		usleep(100000);
		XTestFakeButtonEvent(d, 1, True, 0);
		XTestFakeButtonEvent(d, 1, False, 0);
		XFlush(d);
		usleep(100000);
	} else if (argc == 4 && strcmp(argv[1], "--move") == 0) {
		XTestFakeMotionEvent(d, -1, atoi(argv[2]), atoi(argv[3]), 0);
		XFlush(d);
		usleep(100000);
	} else if (argc == 5 && strcmp(argv[1], "--wheel") == 0) {
		XTestFakeMotionEvent(d, -1, atoi(argv[2]), atoi(argv[3]), 0);
		XFlush(d);
		usleep(100000);
		int n = atoi(argv[4]), button = n < 0 ? 4 : 5;
		for (int i = 0; i < abs(n); i++) {
			XTestFakeButtonEvent(d, button, True, 0);
			XTestFakeButtonEvent(d, button, False, 0);
			XFlush(d);
			usleep(50000);
		}
		usleep(200000);
	} else if (argc == 5 && strcmp(argv[1], "--resize") == 0) {
		XResizeWindow(d, (Window)strtoul(argv[2], NULL, 0), (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
		XSync(d, False);
		usleep(300000);
	} else if (argc == 3 && strcmp(argv[1], "--key") == 0) {
		/* ctrl+a: modifiers before the last '+', the key after it. */
		KeySym mods[3];
		int nmods = 0;
		char buf[64];
		snprintf(buf, sizeof buf, "%s", argv[2]);
		char *key = buf, *plus;
		while ((plus = strchr(key, '+')) != NULL && plus[1] != 0 && nmods < 3) {
			*plus = 0;
			if (strcmp(key, "ctrl") == 0) mods[nmods++] = XK_Control_L;
			else if (strcmp(key, "shift") == 0) mods[nmods++] = XK_Shift_L;
			else if (strcmp(key, "alt") == 0) mods[nmods++] = XK_Alt_L;
			else { fprintf(stderr, "xtype: unknown modifier %s\n", key); return 2; }
			key = plus + 1;
		}
		KeySym s = XStringToKeysym(key);
		if (s == NoSymbol) { fprintf(stderr, "xtype: unknown key %s\n", argv[2]); return 2; }
		press_mods(d, s, mods, nmods);
	} else if (argc == 2) {
		for (const char *p = argv[1]; *p; p++) {
			char name[2] = {*p, 0};
			/* Latin-1 keysyms are the characters' codes ('-' is XK_minus, 0x2d). */
			KeySym s = (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f ? (KeySym)(unsigned char)*p : XStringToKeysym(name);
			if (s != NoSymbol) press(d, s);
		}
	} else {
		fprintf(stderr, "usage: xtype TEXT | xtype --key NAME | xtype --click X Y | xtype --move X Y | xtype --wheel X Y N | xtype --resize WIN W H\n");
		return 2;
	}
	XCloseDisplay(d);
	return 0;
}
