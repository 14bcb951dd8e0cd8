/* xtype: sends keystrokes to the focused X window through the XTest
 * extension (what xdotool type does), for scripts/screenshots.sh. ASCII only.
 *   xtype TEXT            types TEXT
 *   xtype --key NAME      presses one key by keysym name (Tab, Return, Down)
 *   xtype --click X Y     clicks the left button at X,Y (screen coordinates)
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

static void press(Display *d, KeySym sym) {
	KeyCode code = XKeysymToKeycode(d, sym);
	if (code == 0) return;
	int shift = 0;
	if (XkbKeycodeToKeysym(d, code, 0, 0) != sym && XkbKeycodeToKeysym(d, code, 0, 1) == sym) shift = 1;
	KeyCode sh = XKeysymToKeycode(d, XK_Shift_L);
	if (shift) XTestFakeKeyEvent(d, sh, True, 0);
	XTestFakeKeyEvent(d, code, True, 0);
	XTestFakeKeyEvent(d, code, False, 0);
	if (shift) XTestFakeKeyEvent(d, sh, False, 0);
	XFlush(d);
	usleep(30000);
}

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
	} else if (argc == 5 && strcmp(argv[1], "--resize") == 0) {
		XResizeWindow(d, (Window)strtoul(argv[2], NULL, 0), (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
		XSync(d, False);
		usleep(300000);
	} else if (argc == 3 && strcmp(argv[1], "--key") == 0) {
		KeySym s = XStringToKeysym(argv[2]);
		if (s == NoSymbol) { fprintf(stderr, "xtype: unknown key %s\n", argv[2]); return 2; }
		press(d, s);
	} else if (argc == 2) {
		for (const char *p = argv[1]; *p; p++) {
			char name[2] = {*p, 0};
			KeySym s = *p == ' ' ? XK_space : *p == '/' ? XK_slash : XStringToKeysym(name);
			if (s != NoSymbol) press(d, s);
		}
	} else {
		fprintf(stderr, "usage: xtype TEXT | xtype --key NAME | xtype --click X Y | xtype --resize WIN W H\n");
		return 2;
	}
	XCloseDisplay(d);
	return 0;
}
