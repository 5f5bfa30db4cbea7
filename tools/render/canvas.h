// Canvas: a cairo image surface with Pango text drawing, the drawing surface
// of the renderer. Owns its cairo surface and context (freed in the
// destructor). Not thread-safe: one Canvas per thread.
#pragma once

#include <cstdint>
#include <string>

typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
struct Pix;

namespace nunchi::render {

struct Rgb {
  double r = 0, g = 0, b = 0;
};

struct Font {
  std::string family;  // fontconfig family, e.g. "NanumGothic", "DSEG7 Classic"
  double px = 20;      // absolute size in pixels
  bool bold = false;
  bool italic = false;
};

enum class Align { kLeft, kCenter, kRight };

class Canvas {
 public:
  Canvas(int width, int height, Rgb background);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  cairo_t* cr() { return cr_; }

  // Draws UTF-8 text with its top edge at y; x is the left, centre or right
  // edge depending on align. Returns the text's width in pixels.
  double Text(double x, double y, const std::string& text, const Font& font, Rgb color,
              Align align = Align::kLeft);
  // Width and height of the text's logical box.
  void Measure(const std::string& text, const Font& font, double* w, double* h);
  void FillRect(double x, double y, double w, double h, Rgb color);
  void Line(double x0, double y0, double x1, double y1, double width, Rgb color);
  // A copy as a 32 bpp Leptonica image; the caller owns it (pixDestroy).
  Pix* ToPix();

 private:
  int width_, height_;
  cairo_surface_t* surface_;
  cairo_t* cr_;
};

}  // namespace nunchi::render
