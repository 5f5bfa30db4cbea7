#include "canvas.h"

#include <cairo.h>
#include <leptonica/allheaders.h>
#include <pango/pangocairo.h>

namespace nunchi::render {
namespace {

PangoLayout* MakeLayout(cairo_t* cr, const std::string& text, const Font& font) {
  PangoLayout* layout = pango_cairo_create_layout(cr);
  PangoFontDescription* desc = pango_font_description_new();
  pango_font_description_set_family(desc, font.family.c_str());
  pango_font_description_set_absolute_size(desc, font.px * PANGO_SCALE);
  pango_font_description_set_weight(desc, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
  pango_font_description_set_style(desc, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
  pango_layout_set_font_description(layout, desc);
  pango_font_description_free(desc);
  pango_layout_set_text(layout, text.c_str(), -1);
  return layout;
}

}  // namespace

Canvas::Canvas(int width, int height, Rgb bg) : width_(width), height_(height) {
  surface_ = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  cr_ = cairo_create(surface_);
  FillRect(0, 0, width, height, bg);
}

Canvas::~Canvas() {
  cairo_destroy(cr_);
  cairo_surface_destroy(surface_);
}

double Canvas::Text(double x, double y, const std::string& text, const Font& font, Rgb color,
                    Align align) {
  PangoLayout* layout = MakeLayout(cr_, text, font);
  int w = 0, h = 0;
  pango_layout_get_pixel_size(layout, &w, &h);
  double left = align == Align::kLeft ? x : align == Align::kCenter ? x - w / 2.0 : x - w;
  cairo_set_source_rgb(cr_, color.r, color.g, color.b);
  cairo_move_to(cr_, left, y);
  pango_cairo_show_layout(cr_, layout);
  g_object_unref(layout);
  return w;
}

void Canvas::Measure(const std::string& text, const Font& font, double* w, double* h) {
  PangoLayout* layout = MakeLayout(cr_, text, font);
  int iw = 0, ih = 0;
  pango_layout_get_pixel_size(layout, &iw, &ih);
  g_object_unref(layout);
  *w = iw;
  *h = ih;
}

void Canvas::FillRect(double x, double y, double w, double h, Rgb c) {
  cairo_set_source_rgb(cr_, c.r, c.g, c.b);
  cairo_rectangle(cr_, x, y, w, h);
  cairo_fill(cr_);
}

void Canvas::Line(double x0, double y0, double x1, double y1, double width, Rgb c) {
  cairo_set_source_rgb(cr_, c.r, c.g, c.b);
  cairo_set_line_width(cr_, width);
  cairo_move_to(cr_, x0, y0);
  cairo_line_to(cr_, x1, y1);
  cairo_stroke(cr_);
}

Pix* Canvas::ToPix() {
  cairo_surface_flush(surface_);
  Pix* pix = pixCreate(width_, height_, 32);
  const unsigned char* data = cairo_image_surface_get_data(surface_);
  int stride = cairo_image_surface_get_stride(surface_);
  l_uint32* out = pixGetData(pix);
  int wpl = pixGetWpl(pix);
  for (int y = 0; y < height_; ++y) {
    const uint32_t* row = reinterpret_cast<const uint32_t*>(data + y * stride);
    for (int x = 0; x < width_; ++x) {
      uint32_t v = row[x];
      l_uint32 px = 0;
      composeRGBPixel((v >> 16) & 255, (v >> 8) & 255, v & 255, &px);
      out[y * wpl + x] = px;
    }
  }
  return pix;
}

}  // namespace nunchi::render
