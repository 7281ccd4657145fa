<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ChatPanel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="150" />
        <source>%n gap(s)</source>
        <translation>
            <numerusform>%n gap</numerusform><numerusform>%n gaps</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="161" />
        <source>%Ln new chunk(s)</source>
        <translation>
            <numerusform>%Ln new chunk</numerusform><numerusform>%Ln new chunks</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="164" />
        <source>%Ln seen before</source>
        <translation>
            <numerusform>%Ln seen before</numerusform><numerusform>%Ln seen before</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="220" />
        <source>%Ln new</source>
        <translation>
            <numerusform>%Ln new</numerusform><numerusform>%Ln new</numerusform></translation>
    </message>
</context>
<context>
    <name>DocumentsModel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="78" />
        <source>%Ln to embed</source>
        <translation>
            <numerusform>%Ln to embed</numerusform><numerusform>%Ln to embed</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="79" />
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n warning</numerusform><numerusform>%n warnings</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="88" />
        <source>%Ln chunk(s)</source>
        <translation>
            <numerusform>%Ln chunk</numerusform><numerusform>%Ln chunks</numerusform></translation>
    </message>
</context>
<context>
    <name>EstimateLabel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/estimate_label.py" line="27" />
        <source>Research and report take about %n minute(s) on this LLM server</source>
        <translation>
            <numerusform>Research and report take about %n minute on this LLM server</numerusform><numerusform>Research and report take about %n minutes on this LLM server</numerusform></translation>
    </message>
</context>
<context>
    <name>KnowledgeBasePanel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="209" />
        <source>{0}/%Ln file(s)</source>
        <translation>
            <numerusform>{0}/%Ln file</numerusform><numerusform>{0}/%Ln files</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="210" />
        <source>{0}/%Ln page(s)</source>
        <translation>
            <numerusform>{0}/%Ln page</numerusform><numerusform>{0}/%Ln pages</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="219" />
        <source>Embedding {0}/%Ln chunk(s) (search already works)</source>
        <translation>
            <numerusform>Embedding {0}/%Ln chunk (search already works)</numerusform><numerusform>Embedding {0}/%Ln chunks (search already works)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="249" />
        <source>%Ln added</source>
        <translation>
            <numerusform>%Ln added</numerusform><numerusform>%Ln added</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="250" />
        <source>%Ln updated</source>
        <translation>
            <numerusform>%Ln updated</numerusform><numerusform>%Ln updated</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="251" />
        <source>%Ln unchanged</source>
        <translation>
            <numerusform>%Ln unchanged</numerusform><numerusform>%Ln unchanged</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="252" />
        <source>%Ln moved</source>
        <translation>
            <numerusform>%Ln moved</numerusform><numerusform>%Ln moved</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="253" />
        <source>%Ln removed</source>
        <translation>
            <numerusform>%Ln removed</numerusform><numerusform>%Ln removed</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="254" />
        <source>%Ln duplicate(s)</source>
        <translation>
            <numerusform>%Ln duplicate</numerusform><numerusform>%Ln duplicates</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="255" />
        <source>%Ln rejected</source>
        <translation>
            <numerusform>%Ln rejected</numerusform><numerusform>%Ln rejected</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="268" />
        <source>“{database}”: %n file(s) in {seconds} s</source>
        <translation>
            <numerusform>“{database}”: %n file in {seconds} s</numerusform><numerusform>“{database}”: %n files in {seconds} s</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="271" />
        <source> · %Ln chunk(s) still to embed (search already works)</source>
        <translation>
            <numerusform> · %Ln chunk still to embed (search already works)</numerusform><numerusform> · %Ln chunks still to embed (search already works)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="278" />
        <source>%Ln page(s)</source>
        <translation>
            <numerusform>%Ln page</numerusform><numerusform>%Ln pages</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="278" />
        <source>%Ln chunk(s)</source>
        <translation>
            <numerusform>%Ln chunk</numerusform><numerusform>%Ln chunks</numerusform></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/main_window.py" line="322" />
        <source>KB: {0} · %Ln document(s)</source>
        <translation>
            <numerusform>KB: {0} · %Ln document</numerusform><numerusform>KB: {0} · %Ln documents</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/main_window.py" line="323" />
        <source> · %Ln chunk(s) to embed</source>
        <translation>
            <numerusform> · %Ln chunk to embed</numerusform><numerusform> · %Ln chunks to embed</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/main_window.py" line="371" />
        <source>%n file(s) written to {folder}</source>
        <translation>
            <numerusform>%n file written to {folder}</numerusform><numerusform>%n files written to {folder}</numerusform></translation>
    </message>
</context>
<context>
    <name>PdfSearch</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/pdf_search.py" line="159" />
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform><numerusform>%n matches</numerusform></translation>
    </message>
</context>
<context>
    <name>PdfViewer</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/pdf_viewer.py" line="110" />
        <source>Page {page} does not exist; the document has %n page(s).</source>
        <translation>
            <numerusform>Page {page} does not exist; the document has %n page.</numerusform><numerusform>Page {page} does not exist; the document has %n pages.</numerusform></translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="168" />
        <source>%Ln read</source>
        <translation>
            <numerusform>%Ln read</numerusform><numerusform>%Ln read</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="169" />
        <source>%Ln reference(s)</source>
        <translation>
            <numerusform>%Ln reference</numerusform><numerusform>%Ln references</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="187" />
        <source>%Ln token(s) · {0} s</source>
        <translation>
            <numerusform>%Ln token · {0} s</numerusform><numerusform>%Ln tokens · {0} s</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="315" />
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n minute</numerusform><numerusform>%n minutes</numerusform></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/settings_dialog.py" line="232" />
        <source>%n field(s) need correcting (marked in red).</source>
        <translation>
            <numerusform>%n field needs correcting (marked in red).</numerusform><numerusform>%n fields need correcting (marked in red).</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/settings_dialog.py" line="299" />
        <source>%n model(s)</source>
        <translation>
            <numerusform>%n model</numerusform><numerusform>%n models</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/settings_dialog.py" line="330" />
        <source>%n chat model(s) on the server</source>
        <translation>
            <numerusform>%n chat model on the server</numerusform><numerusform>%n chat models on the server</numerusform></translation>
    </message>
</context>
</TS>