//! Product pictures: what an upload must be (JPEG, PNG or WebP by its bytes, at most 8 MB
//! and 8,000 px a side), and the widths pages ask for, made from the original on first
//! request (`serve::images::uploaded`) as WebP, or JPEG for a browser that does not take
//! WebP. Every width is one of the shop's (spec 000 §9: 179, 285, 312, 361 px, the tile's
//! 235 and the product page's 480, each also at double density); a picture is never
//! enlarged.
use std::io::Cursor;

use image::{DynamicImage, ImageFormat, ImageReader, Limits};

pub const MAX_BYTES: usize = 8 * 1024 * 1024;
pub const MAX_SIDE: u32 = 8000;
pub const WIDTHS: [u32; 12] = [179, 235, 285, 312, 361, 480, 358, 470, 570, 624, 722, 960];
pub const DEFAULT_WIDTH: u32 = 361;

#[derive(Debug, PartialEq, Eq)]
pub enum MediaError {
    TooLarge,
    NotAPicture,
    TooManyPixels,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Webp,
    Jpeg,
}

impl Encoding {
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Webp => "webp",
            Encoding::Jpeg => "jpeg",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Encoding::Webp => "image/webp",
            Encoding::Jpeg => "image/jpeg",
        }
    }
}

fn limits() -> Limits {
    let mut l = Limits::default();
    l.max_image_width = Some(MAX_SIDE);
    l.max_image_height = Some(MAX_SIDE);
    l.max_alloc = Some(512 * 1024 * 1024);
    l
}

/// Decodes an upload: its type from its bytes (not its name or the browser's word).
pub fn decode(bytes: &[u8]) -> Result<DynamicImage, MediaError> {
    if bytes.len() > MAX_BYTES {
        return Err(MediaError::TooLarge);
    }
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| MediaError::NotAPicture)?;
    if !matches!(
        reader.format(),
        Some(ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP)
    ) {
        return Err(MediaError::NotAPicture);
    }
    reader.limits(limits());
    reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => MediaError::TooManyPixels,
        _ => MediaError::NotAPicture,
    })
}

/// The width served for a page's `?w=`: the smallest of the shop's widths at least as wide
/// (the largest when none is).
pub fn served_width(asked: Option<u32>) -> u32 {
    let asked = asked.unwrap_or(DEFAULT_WIDTH);
    let mut widths = WIDTHS;
    widths.sort_unstable();
    widths
        .into_iter()
        .find(|w| *w >= asked)
        .unwrap_or(widths[widths.len() - 1])
}

/// The picture `width` px wide (never wider than the original), encoded.
pub fn variant(original: &[u8], width: u32, encoding: Encoding) -> Result<Vec<u8>, MediaError> {
    let img = decode(original)?;
    let img = if img.width() > width {
        img.resize(width, MAX_SIDE, image::imageops::FilterType::CatmullRom)
    } else {
        img
    };
    let mut out = Cursor::new(Vec::new());
    match encoding {
        Encoding::Webp => DynamicImage::ImageRgba8(img.to_rgba8())
            .write_with_encoder(image::codecs::webp::WebPEncoder::new_lossless(&mut out))
            .map_err(|_| MediaError::NotAPicture)?,
        Encoding::Jpeg => DynamicImage::ImageRgb8(img.to_rgb8())
            .write_with_encoder(image::codecs::jpeg::JpegEncoder::new_with_quality(
                &mut out, 82,
            ))
            .map_err(|_| MediaError::NotAPicture)?,
    }
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = DynamicImage::ImageRgb8(image::RgbImage::from_fn(w, h, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
        }));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn uploads_are_read_by_their_bytes() {
        assert_eq!(decode(&png(40, 30)).unwrap().width(), 40);
        assert_eq!(decode(b"GIF89a....").unwrap_err(), MediaError::NotAPicture);
        assert_eq!(
            decode(b"<svg xmlns='http://www.w3.org/2000/svg'/>").unwrap_err(),
            MediaError::NotAPicture
        );
        let mut truncated = png(40, 30);
        truncated.truncate(60);
        assert_eq!(decode(&truncated).unwrap_err(), MediaError::NotAPicture);
        assert_eq!(
            decode(&vec![0u8; MAX_BYTES + 1]).unwrap_err(),
            MediaError::TooLarge
        );
    }

    #[test]
    fn widths_are_the_shops_and_pictures_never_grow() {
        assert_eq!(served_width(None), 361);
        assert_eq!(served_width(Some(180)), 235);
        assert_eq!(served_width(Some(179)), 179);
        assert_eq!(served_width(Some(5000)), 960);
        let original = png(400, 200);
        let small = decode(&variant(&original, 179, Encoding::Webp).unwrap()).unwrap();
        assert_eq!((small.width(), small.height()), (179, 90));
        let jpeg = variant(&original, 960, Encoding::Jpeg).unwrap();
        assert_eq!(&jpeg[..3], &[0xFF, 0xD8, 0xFF]);
        assert_eq!(decode(&jpeg).unwrap().width(), 400, "not enlarged");
    }
}
