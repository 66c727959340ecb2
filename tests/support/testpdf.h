#pragma once

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace Loopscope::Testing {

// A PDF with one page per entry of \a pages, each showing its text in Helvetica; an empty entry
// is a page without any text.
inline QByteArray pdfWithPages(const QStringList &pages)
{
    QList<QByteArray> objects;
    QByteArray kids;
    const int firstPage = 4; // 1 catalog, 2 pages, 3 font, then a page and its contents each
    for (int index = 0; index < pages.size(); ++index) {
        const int page = firstPage + 2 * index;
        kids += QByteArray::number(page) + " 0 R ";
        objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents "
                       + QByteArray::number(page + 1) + " 0 R /Resources << /Font << /F1 3 0 R >> >> >>");
        const QByteArray stream = pages.at(index).isEmpty()
                                      ? QByteArray("0 0 1 rg 10 10 50 50 re f")
                                      : "BT /F1 18 Tf 20 100 Td (" + pages.at(index).toLatin1() + ") Tj ET";
        objects.append("<< /Length " + QByteArray::number(stream.size()) + " >>\nstream\n" + stream
                       + "\nendstream");
    }
    objects.prepend("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    objects.prepend("<< /Type /Pages /Kids [" + kids + "] /Count " + QByteArray::number(pages.size())
                    + " >>");
    objects.prepend("<< /Type /Catalog /Pages 2 0 R >>");

    QByteArray pdf = "%PDF-1.4\n";
    QList<qsizetype> offsets;
    for (int index = 0; index < objects.size(); ++index) {
        offsets.append(pdf.size());
        pdf += QByteArray::number(index + 1) + " 0 obj\n" + objects.at(index) + "\nendobj\n";
    }
    const qsizetype xref = pdf.size();
    pdf += "xref\n0 " + QByteArray::number(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (qsizetype offset : offsets)
        pdf += QByteArray::number(offset).rightJustified(10, '0') + " 00000 n \n";
    pdf += "trailer\n<< /Size " + QByteArray::number(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n"
           + QByteArray::number(xref) + "\n%%EOF\n";
    return pdf;
}

} // namespace Loopscope::Testing
